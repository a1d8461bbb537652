// RUN: toast-opt %s --toast-test-print-sharding-rules | FileCheck %s

// Loops and conditionals have no sharding rule: DataFlowEdgeOpInterface
// names their tied values, and a counted loop's trip count comes from the
// counter pattern (compare against a constant, step by a constant) when the
// counter cannot wrap around its type before the condition fails.

// CHECK-LABEL: func.func @counted_up(
func.func @counted_up(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.while{{.*}}toast.sharding_rule = "edges: #0 {{.*}} #1 (operand 1, region 1 return 1)->(result 1, region 0 arg 1, region 1 arg 1) trips=5"
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<i32>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<10> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2> : tensor<i32>
    %next = stablehlo.add %i, %two : tensor<i32>
    %y = stablehlo.exponential %x : tensor<4x8xf32>
    stablehlo.return %next, %y : tensor<i32>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// The limit on the left and a counter stepping down: 7, 6, ..., 0.
// CHECK-LABEL: func.func @counted_down(
func.func @counted_down(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c7 = stablehlo.constant dense<7> : tensor<i64>
  // CHECK: stablehlo.while{{.*}}trips=8"
  %0:2 = stablehlo.while(%i = %c7, %x = %v) : tensor<i64>, tensor<4x8xf32>
   cond {
    %zero = stablehlo.constant dense<0> : tensor<i64>
    %p = stablehlo.compare LE, %zero, %i : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %next = stablehlo.subtract %i, %one : tensor<i64>
    stablehlo.return %next, %x : tensor<i64>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// A bound that is not a constant: no trip count.
// CHECK-LABEL: func.func @uncounted(
func.func @uncounted(%n: tensor<i32>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.while{{.*}}region 1 arg 2)"}
  %0:3 = stablehlo.while(%i = %c0, %m = %n, %x = %v) : tensor<i32>, tensor<i32>, tensor<4x8xf32>
   cond {
    %p = stablehlo.compare LT, %i, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %m, %x : tensor<i32>, tensor<i32>, tensor<4x8xf32>
  }
  return %0#2 : tensor<4x8xf32>
}

// Nested loops: each while has its own edges; the inner loop's operand is
// the outer body's block argument.
// CHECK-LABEL: func.func @nested(
func.func @nested(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.while{{.*}}trips=3"
  // CHECK: stablehlo.while{{.*}}trips=2"
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<i32>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %z = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.while(%j = %z, %y = %x) : tensor<i32>, tensor<4x8xf32>
     cond {
      %n = stablehlo.constant dense<2> : tensor<i32>
      %p = stablehlo.compare LT, %j, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %next = stablehlo.add %j, %one : tensor<i32>
      %e = stablehlo.exponential %y : tensor<4x8xf32>
      stablehlo.return %next, %e : tensor<i32>, tensor<4x8xf32>
    }
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %1#1 : tensor<i32>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// A decode loop as JAX's generate writes it: the counter starts at `7 + 1`
// and the loop goes on while `!(i == 20 || all(done))`. The counted term
// bounds it to 12 iterations; the other term may end it sooner, so 12 is a
// maximum.
// CHECK-LABEL: func.func @early_exit(
func.func @early_exit(%done: tensor<1xi1>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c7 = stablehlo.constant dense<7> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %start = stablehlo.add %c7, %c1 : tensor<i32>
  // CHECK: stablehlo.while{{.*}}trips<=12"
  %0:3 = stablehlo.while(%i = %start, %d = %done, %x = %v) : tensor<i32>, tensor<1xi1>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<20> : tensor<i32>
    %last = stablehlo.compare EQ, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %true = stablehlo.constant dense<true> : tensor<i1>
    %all = stablehlo.reduce(%d init: %true) applies stablehlo.and across dimensions = [0] : (tensor<1xi1>, tensor<i1>) -> tensor<i1>
    %false = stablehlo.constant dense<false> : tensor<i1>
    %isLast = stablehlo.compare NE, %last, %false, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %stop = stablehlo.or %isLast, %all : tensor<i1>
    %go = stablehlo.not %stop : tensor<i1>
    stablehlo.return %go : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %d, %x : tensor<i32>, tensor<1xi1>, tensor<4x8xf32>
  }
  return %0#2 : tensor<4x8xf32>
}

// Two counted terms joined by `and`: the first to end decides, exactly.
// CHECK-LABEL: func.func @two_counters(
func.func @two_counters(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.while{{.*}}trips=3"
  %0:3 = stablehlo.while(%i = %c0, %j = %c0, %x = %v) : tensor<i32>, tensor<i32>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %m = stablehlo.constant dense<6> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %q = stablehlo.compare LT, %j, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %both = stablehlo.and %p, %q : tensor<i1>
    stablehlo.return %both : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %two = stablehlo.constant dense<2> : tensor<i32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %j1 = stablehlo.add %j, %two : tensor<i32>
    stablehlo.return %i1, %j1, %x : tensor<i32>, tensor<i32>, tensor<4x8xf32>
  }
  return %0#2 : tensor<4x8xf32>
}

// `or` of two terms goes on while either holds: no bound.
// CHECK-LABEL: func.func @either(
func.func @either(%go: tensor<i1>, %v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  // CHECK: stablehlo.while{{.*}}region 1 arg 2)"}
  %0:3 = stablehlo.while(%i = %c0, %g = %go, %x = %v) : tensor<i32>, tensor<i1>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %any = stablehlo.or %p, %g : tensor<i1>
    stablehlo.return %any : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %next, %g, %x : tensor<i32>, tensor<i1>, tensor<4x8xf32>
  }
  return %0#2 : tensor<4x8xf32>
}

// Counts that would overflow are no counts (the loop is priced as one
// iteration, with the warning): `i != INT64_MIN` stepping by -1, and
// `i <= INT64_MAX` stepping by 1. `i < INT64_MAX - 1` by 2 is counted: its
// last value, INT64_MAX - 1, fits (by 2 under `i < INT64_MAX` the counter
// would wrap from INT64_MAX - 1 to INT64_MIN: @wraps_i64_big_step below).
// CHECK-LABEL: func.func @overflowing(
func.func @overflowing(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  // CHECK: stablehlo.while{{.*}}region 1 arg 1)"}
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<i64>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
    %p = stablehlo.compare NE, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %next = stablehlo.subtract %i, %one : tensor<i64>
    stablehlo.return %next, %x : tensor<i64>, tensor<4x8xf32>
  }
  // CHECK: stablehlo.while{{.*}}region 1 arg 1)"}
  %1:2 = stablehlo.while(%i = %c0, %x = %0#1) : tensor<i64>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<9223372036854775807> : tensor<i64>
    %p = stablehlo.compare LE, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %next = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %next, %x : tensor<i64>, tensor<4x8xf32>
  }
  // CHECK: stablehlo.while{{.*}}trips=4611686018427387903"
  %2:2 = stablehlo.while(%i = %c0, %x = %1#1) : tensor<i64>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<9223372036854775806> : tensor<i64>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %two = stablehlo.constant dense<2> : tensor<i64>
    %next = stablehlo.add %i, %two : tensor<i64>
    stablehlo.return %next, %x : tensor<i64>, tensor<4x8xf32>
  }
  return %2#1 : tensor<4x8xf32>
}

// A start that wraps in its type is no constant: 127 + 1 in i8.
// CHECK-LABEL: func.func @wrapping_start(
func.func @wrapping_start(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = stablehlo.constant dense<127> : tensor<i8>
  %b = stablehlo.constant dense<1> : tensor<i8>
  %start = stablehlo.add %a, %b : tensor<i8>
  // CHECK: stablehlo.while{{.*}}region 1 arg 1)"}
  %0:2 = stablehlo.while(%i = %start, %x = %v) : tensor<i8>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<100> : tensor<i8>
    %p = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i8>
    %next = stablehlo.add %i, %one : tensor<i8>
    stablehlo.return %next, %x : tensor<i8>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// Counters wrap: an i8 counter under `i <= 127` goes 127 -> -128 and the
// condition never fails, so the loop has no trip count.
// CHECK-LABEL: func.func @wraps_i8(
func.func @wraps_i8(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i8>
  // CHECK: stablehlo.while{{.*}}region 1 arg 1)"}
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<i8>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<127> : tensor<i8>
    %p = stablehlo.compare LE, %i, %n : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.constant dense<1> : tensor<i8>
    %next = stablehlo.add %i, %s : tensor<i8>
    stablehlo.return %next, %x : tensor<i8>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// The last value the condition sees, 127, fits: 127 trips.
// CHECK-LABEL: func.func @fits_i8(
func.func @fits_i8(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i8>
  // CHECK: stablehlo.while{{.*}}trips=127"
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<i8>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<127> : tensor<i8>
    %p = stablehlo.compare LT, %i, %n : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.constant dense<1> : tensor<i8>
    %next = stablehlo.add %i, %s : tensor<i8>
    stablehlo.return %next, %x : tensor<i8>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// Down to the minimum: `i >= -128` always holds for an i8.
// CHECK-LABEL: func.func @wraps_i8_down(
func.func @wraps_i8_down(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i8>
  // CHECK: stablehlo.while{{.*}}region 1 arg 1)"}
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<i8>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<-128> : tensor<i8>
    %p = stablehlo.compare GE, %i, %n : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.constant dense<-1> : tensor<i8>
    %next = stablehlo.add %i, %s : tensor<i8>
    stablehlo.return %next, %x : tensor<i8>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// Unsigned: `i <= 255` always holds for a ui8.
// CHECK-LABEL: func.func @wraps_ui8(
func.func @wraps_ui8(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<ui8>
  // CHECK: stablehlo.while{{.*}}region 1 arg 1)"}
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<ui8>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<255> : tensor<ui8>
    %p = stablehlo.compare LE, %i, %n : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.constant dense<1> : tensor<ui8>
    %next = stablehlo.add %i, %s : tensor<ui8>
    stablehlo.return %next, %x : tensor<ui8>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// A ui8 counts to 255, past the signed maximum.
// CHECK-LABEL: func.func @fits_ui8(
func.func @fits_ui8(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<ui8>
  // CHECK: stablehlo.while{{.*}}trips=255"
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<ui8>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<255> : tensor<ui8>
    %p = stablehlo.compare LT, %i, %n : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.constant dense<1> : tensor<ui8>
    %next = stablehlo.add %i, %s : tensor<ui8>
    stablehlo.return %next, %x : tensor<ui8>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// An UNSIGNED compare reads the wrapped i8 -128 as 128, which ends the
// loop after 128 trips.
// CHECK-LABEL: func.func @unsigned_compare_i8(
func.func @unsigned_compare_i8(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i8>
  // CHECK: stablehlo.while{{.*}}trips=128"
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<i8>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<127> : tensor<i8>
    %p = stablehlo.compare LE, %i, %n, UNSIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.constant dense<1> : tensor<i8>
    %next = stablehlo.add %i, %s : tensor<i8>
    stablehlo.return %next, %x : tensor<i8>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}

// An i64 stepping by 2^62 under `< 2^63 - 1`: the second step would reach
// 2^63 and wraps to the minimum instead.
// CHECK-LABEL: func.func @wraps_i64_big_step(
func.func @wraps_i64_big_step(%v: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  // CHECK: stablehlo.while{{.*}}region 1 arg 1)"}
  %0:2 = stablehlo.while(%i = %c0, %x = %v) : tensor<i64>, tensor<4x8xf32>
   cond {
    %n = stablehlo.constant dense<9223372036854775807> : tensor<i64>
    %p = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %s = stablehlo.constant dense<4611686018427387904> : tensor<i64>
    %next = stablehlo.add %i, %s : tensor<i64>
    stablehlo.return %next, %x : tensor<i64>, tensor<4x8xf32>
  }
  return %0#1 : tensor<4x8xf32>
}
