// The simulated step as a Chrome trace event file (trace=FILE) and the
// memory curve as CSV (memory-csv=FILE); docs/simulator.md, "Timeline".
//
// By hand on @main (the program of overlap.mlir) on the unit device: the
// dot takes 65536 / 1e12 = 0.065536 us, the all_gather 1e-6 + 2048 / 1e9 =
// 3.048 us, the exponential no time (no slice). Memory: arguments x 8192 +
// w 512 + v 2048 = 10752 B; + y (16384) at the dot = 27136; + g (4096) at
// the gather = 31232; + e (4096) at the exponential = 35328 (the peak, op
// #2). Floor: after the gather, arguments + y + g = 31232 B.
//
// One stream: the gather starts when the dot ends; the exponential at
// 3.113536 us, the end of the step.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json json=%t.one.json trace=%t.one.trace.json memory-csv=%t.one.csv summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=ONE --match-full-lines < %t.one.trace.json
// RUN: FileCheck %s --check-prefix=ONE-CSV --match-full-lines < %t.one.csv
// RUN: %python %S/Inputs/check_trace.py %t.one.json %t.one.trace.json %t.one.csv | FileCheck %s --check-prefix=OK
// ONE:      {"traceEvents":[
// ONE-NEXT: {"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"partir-simulate: @main on unit"}},
// ONE-NEXT: {"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"compute"}},
// ONE-NEXT: {"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"collectives (same stream as compute)"}},
// ONE-NEXT: {"name":"thread_sort_index","ph":"M","pid":1,"tid":1,"args":{"sort_index":1}},
// ONE-NEXT: {"name":"thread_sort_index","ph":"M","pid":1,"tid":2,"args":{"sort_index":2}},
// ONE-NEXT: {"name":"stablehlo.dot_general","cat":"compute","ph":"X","ts":0,"dur":0.065536,"pid":1,"tid":1,"args":{"op_index":0,"loc":"loc(\"{{.*}}trace.mlir\":[[#@LINE+90]]:10)","repeat":1,"flops":65536,"live_bytes":27136}},
// ONE-NEXT: {"name":"partir_hlo.all_gather","cat":"collective","ph":"X","ts":0.065536,"dur":3.048,"pid":1,"tid":2,"args":{"op_index":1,"loc":"loc(\"{{.*}}trace.mlir\":[[#@LINE+90]]:10)","repeat":1,"kind":"all_gather","bytes_sent":2048,"live_bytes":31232}},
// ONE-NEXT: {"name":"live memory","ph":"C","ts":0,"pid":1,"args":{"bytes":27136}},
// ONE-NEXT: {"name":"live memory","ph":"C","ts":0.065536,"pid":1,"args":{"bytes":31232}},
// ONE-NEXT: {"name":"live memory","ph":"C","ts":3.113536,"pid":1,"args":{"bytes":35328}},
// ONE-NEXT: {"name":"memory floor","ph":"C","ts":0,"pid":1,"args":{"bytes":31232}},
// ONE-NEXT: {"name":"memory floor","ph":"C","ts":3.113536,"pid":1,"args":{"bytes":31232}},
// ONE-NEXT: {"name":"peak memory","cat":"memory","ph":"i","s":"t","ts":3.113536,"pid":1,"tid":1,"args":{"bytes":35328,"op":"stablehlo.exponential","loc":"loc(\"{{.*}}trace.mlir\":[[#@LINE+85]]:10)","op_index":2}}
// ONE-NEXT: ],
// ONE-NEXT: "otherData":{"tool":"partir-simulate","device":"unit","function":"main","time_unit":"us","step_time_s":3.113536e-06,"compute_time_s":6.5536e-08,"comm_time_s":3.048e-06,"peak_memory_bytes":35328,"memory_floor_bytes":31232,"num_ops":3,"overlap":false}}
// ONE-CSV:      time_s,live_bytes,op_index,op
// ONE-CSV-NEXT: 0,27136,0,stablehlo.dot_general
// ONE-CSV-NEXT: 6.5536e-08,31232,1,partir_hlo.all_gather
// ONE-CSV-NEXT: 3.113536e-06,35328,2,stablehlo.exponential
// OK: OK:
//
// Two streams (overlap=true): the gather starts with the dot, and the
// exponential waits for it (3.048 us). Both start at 0, so the counter
// holds the larger of their live bytes there.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=file:%S/Inputs/unit-device.json overlap=true json=%t.two.json trace=%t.two.trace.json memory-csv=%t.two.csv summary=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t.two.trace.json
// RUN: %python %S/Inputs/check_trace.py %t.two.json %t.two.trace.json %t.two.csv | FileCheck %s --check-prefix=OK
// TWO: "args":{"name":"collectives (own stream, overlapped)"}
// TWO: {"name":"partir_hlo.all_gather","cat":"collective","ph":"X","ts":0,"dur":3.048,"pid":1,"tid":2,
// TWO: {"name":"live memory","ph":"C","ts":0,"pid":1,"args":{"bytes":31232}},
// TWO-NEXT: {"name":"live memory","ph":"C","ts":3.048,"pid":1,"args":{"bytes":35328}},
//
// The tiny t2b, itx and scanned t2b of the model zoo, partitioned over
// {B:2, M:2}: the slices add up to the report's compute and communication
// time, the counter peaks at the peak, and slices nest on each track. In
// the scanned t2b and in itx with 4 decode steps a loop is a slice
// enclosing its body's slices, each lasting its trip count times one
// iteration. Memory-bound pricing walks the program twice; the trace is
// that of the second walk.
// RUN: toast-models t2b --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 -o %t.t2b.mlir
// RUN: toast-opt %t.t2b.mlir --partir-schedule=file=%S/Inputs/tiny-bp-mp.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.t2b.json trace=%t.t2b.trace.json memory-csv=%t.t2b.csv summary=false" -o /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.t2b.json %t.t2b.trace.json %t.t2b.csv | FileCheck %s --check-prefix=OK
// RUN: toast-opt %t.t2b.mlir --partir-schedule=file=%S/Inputs/tiny-bp-mp.json --partir-lower-to-hlo --partir-simulate="device=tpuv3 memory-bound=true overlap=true fusion=true donate=true json=%t.t2b-mb.json trace=%t.t2b-mb.trace.json memory-csv=%t.t2b-mb.csv summary=false" -o /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.t2b-mb.json %t.t2b-mb.trace.json %t.t2b-mb.csv | FileCheck %s --check-prefix=OK
// RUN: toast-models t2b --scan --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 -o %t.scan.mlir
// RUN: toast-opt %t.scan.mlir --partir-schedule=file=%S/Inputs/tiny-bp.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 json=%t.scan.json trace=%t.scan.trace.json memory-csv=%t.scan.csv summary=false" -o /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.scan.json %t.scan.trace.json %t.scan.csv --regions 2 | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=SCAN < %t.scan.trace.json
// SCAN: {"name":"stablehlo.while","cat":"region","ph":"X",{{.*}}"tid":1,"args":{"op_index":{{[0-9]+}},"first_op_index":{{[0-9]+}},"loc":"loc({{.*}})","iterations":2}}
// SCAN: {"name":"stablehlo.dot_general","cat":"compute","ph":"X",{{.*}}"repeat":2,
// RUN: toast-models itx --decode-steps 4 --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24 -o %t.itx.mlir
// RUN: toast-opt %t.itx.mlir --partir-schedule=file=%S/Inputs/tiny-bp-mp.json --partir-lower-to-hlo --partir-simulate="memory-bound=false fusion=false device=a100 overlap=true json=%t.itx.json trace=%t.itx.trace.json memory-csv=%t.itx.csv summary=false" -o /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.itx.json %t.itx.trace.json %t.itx.csv --regions 1 | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=ITX < %t.itx.trace.json
// ITX: {"name":"partir_hlo.all_reduce","cat":"collective","ph":"X",{{.*}}"repeat":4,"kind":"all_reduce",
//
// @nested: a 2-trip loop in a 3-trip loop around a 64x64 dot (2 * 64^3 =
// 524288 FLOPs, 26.8865641026 ns on a100) that runs 6 times: one dot slice
// of 6 x 26.8865641026 = 161.319384615 ns, enclosed by the inner loop's
// slice and that by the outer loop's, outer first.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 function=nested json=%t.nested.json trace=%t.nested.trace.json summary=false" -o /dev/null
// RUN: %python %S/Inputs/check_trace.py %t.nested.json %t.nested.trace.json --regions 2 | FileCheck %s --check-prefix=OK
// RUN: FileCheck %s --check-prefix=NESTED < %t.nested.trace.json
// NESTED:      {"name":"stablehlo.while","cat":"region","ph":"X","ts":0,"dur":0.161319384615385,"pid":1,"tid":1,"args":{"op_index":12,"first_op_index":1,{{.*}}"iterations":3}},
// NESTED-NEXT: {"name":"stablehlo.while","cat":"region","ph":"X","ts":0,"dur":0.161319384615385,"pid":1,"tid":1,"args":{"op_index":9,"first_op_index":4,{{.*}}"iterations":2}},
// NESTED-NEXT: {"name":"stablehlo.dot_general","cat":"compute","ph":"X","ts":0,"dur":0.161319384615385,"pid":1,"tid":1,"args":{"op_index":6,{{.*}}"repeat":6,"flops":3145728,
//
// Outputs that cannot be written are errors located on the module, before
// anything is simulated, and leave no other output behind.
// RUN: not toast-opt %s --partir-simulate="memory-bound=false fusion=false trace=/nonexistent/dir/x.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-TRACE
// BAD-TRACE: trace.mlir:[[#@LINE+22]]:1: error: partir-simulate: trace: cannot open output file '/nonexistent/dir/x.json': {{[Nn]}}o such file or directory
// BAD-TRACE-NOT: partir-simulate: @main
// RUN: not toast-opt %s --partir-simulate="memory-bound=false fusion=false memory-csv=/nonexistent/dir/x.csv" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-CSV
// BAD-CSV: trace.mlir:[[#@LINE+19]]:1: error: partir-simulate: memory-csv: cannot open output file '/nonexistent/dir/x.csv': {{[Nn]}}o such file or directory
// RUN: not toast-opt %s --partir-simulate="memory-bound=false fusion=false json=/nonexistent/dir/r.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-JSON
// BAD-JSON: error: partir-simulate: json: cannot open output file '/nonexistent/dir/r.json'
// RUN: rm -f %t.partial.json
// RUN: not toast-opt %s --partir-simulate="memory-bound=false fusion=false json=%t.partial.json trace=/nonexistent/dir/x.json" -o /dev/null
// RUN: not test -e %t.partial.json
// A write that fails (a full device) is an error too.
// RUN: not toast-opt %s --partir-simulate="memory-bound=false fusion=false trace=/dev/full summary=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// FULL: error: partir-simulate: cannot write '/dev/full': {{.+}}
// RUN: rm -f %t.kept.json
// RUN: not toast-opt %s --partir-simulate="memory-bound=false fusion=false json=%t.kept.json trace=/dev/full summary=false" -o /dev/null
// RUN: not test -e %t.kept.json
// A directory is not writable as a file either.
// RUN: not toast-opt %s --partir-simulate="memory-bound=false fusion=false trace=%S" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: error: partir-simulate: trace: cannot open output file '{{.*}}Simulator': {{.+}}
// Writing to stdout works.
// RUN: toast-opt %s --partir-simulate="memory-bound=false fusion=false device=a100 trace=- summary=false" -o /dev/null | %python -c "import json, sys; print(sorted(json.load(sys.stdin)))" | FileCheck %s --check-prefix=STDOUT
// STDOUT: ['otherData', 'traceEvents']

module attributes {partir.mesh = #partir.mesh<["A"=2]>} {
  func.func @main(%x: tensor<256x8xf32>, %w: tensor<8x16xf32>, %v: tensor<512xf32>)
      -> (tensor<256x16xf32>, tensor<1024xf32>) {
    %y = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<256x8xf32>, tensor<8x16xf32>) -> tensor<256x16xf32>
    %g = partir_hlo.all_gather [{"A"}] %v : tensor<512xf32> -> tensor<1024xf32>
    %e = stablehlo.exponential %g : tensor<1024xf32>
    return %y, %e : tensor<256x16xf32>, tensor<1024xf32>
  }

  func.func private @nested(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %a = %x) : tensor<i32>, tensor<64x64xf32>
      cond {
        %n = stablehlo.constant dense<3> : tensor<i32>
        %p = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %z = stablehlo.constant dense<0> : tensor<i32>
        %s:2 = stablehlo.while(%j = %z, %b = %a) : tensor<i32>, tensor<64x64xf32>
          cond {
            %m = stablehlo.constant dense<2> : tensor<i32>
            %q = stablehlo.compare LT, %j, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>
            stablehlo.return %q : tensor<i1>
          } do {
            %d = stablehlo.dot_general %b, %b, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
            %one = stablehlo.constant dense<1> : tensor<i32>
            %j1 = stablehlo.add %j, %one : tensor<i32>
            stablehlo.return %j1, %d : tensor<i32>, tensor<64x64xf32>
          }
        %one = stablehlo.constant dense<1> : tensor<i32>
        %i1 = stablehlo.add %i, %one : tensor<i32>
        stablehlo.return %i1, %s#1 : tensor<i32>, tensor<64x64xf32>
      }
    return %r#1 : tensor<64x64xf32>
  }
}

// Two failing outputs: each is reported, and neither aborts.
// RUN: not toast-opt %s --partir-simulate="memory-bound=false fusion=false trace=/dev/full memory-csv=/dev/full summary=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL2
// FULL2-COUNT-2: error: partir-simulate: cannot write '/dev/full': {{.+}}
// FULL2-NOT: LLVM ERROR
