// Bad devices, bad device files and programs the simulator cannot price
// fail with a message that says what is wrong.
//
// RUN: not toast-opt %s --partir-simulate="device=v100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: partir-simulate: unknown device 'v100' (known devices: a100, h100, p100, tpuv3; or file:PATH for a JSON device file)
//
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/does-not-exist.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING-FILE
// MISSING-FILE: error: partir-simulate: cannot read device file '{{.*}}does-not-exist.json': {{[Nn]}}o such file or directory
//
// RUN: not toast-opt %s --partir-simulate="device=file:" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-PATH
// NO-PATH: error: partir-simulate: 'file:' needs a path to a JSON device file
//
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-syntax.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: error: partir-simulate: device file '{{.*}}bad-syntax.json': invalid JSON: {{.+}}
//
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-missing.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REQUIRED
// REQUIRED: error: partir-simulate: device file '{{.*}}bad-missing.json': missing required key 'interconnect'
//
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-negative.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: partir-simulate: device file '{{.*}}bad-negative.json': 'peak_flops.bf16': expected a finite number >= 1
//
// JSON nested deeper than any real file is refused before it is parsed
// (the parser recurses per level: 50,000 levels overflowed the stack).
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-deep.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not toast-opt %s --partir-schedule=file=%S/Inputs/bad-deep.json -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: invalid JSON: nested more than 512 levels deep (at byte 512)
//
// A positive rate below one per second overflows every step time to
// infinity and every cost to NaN:
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-tiny-rate.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TINY
// TINY: error: partir-simulate: device file '{{.*}}bad-tiny-rate.json': 'peak_flops.f32': expected a finite number >= 1
//
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-unknown-key.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TYPO
// TYPO: error: partir-simulate: device file '{{.*}}bad-unknown-key.json': 'memory_byte': unknown key (expected one of: name, description, base, peak_flops, memory_bytes, memory_bandwidth, interconnect, axes)
//
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-flops-type.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOPS-TYPE
// FLOPS-TYPE: error: partir-simulate: device file '{{.*}}bad-flops-type.json': 'peak_flops.xyz': unknown element type (expected f64, f32, tf32, bf16, f16, f8, iN or default)
//
// Memory is counted in 64-bit integers:
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-huge-memory.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HUGE-MEMORY
// HUGE-MEMORY: error: partir-simulate: device file '{{.*}}bad-huge-memory.json': 'memory_bytes': expected at most 2^53 bytes
//
// RUN: not toast-opt %s --partir-simulate="device=a100 penalty=nan" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PENALTY
// RUN: not toast-opt %s --partir-simulate="device=a100 penalty=-1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PENALTY
// PENALTY: error: partir-simulate: penalty must be a finite number >= 0, got
//
// RUN: not toast-opt %s --partir-simulate="device=a100 baseline=%S/Inputs/bad-baseline-negative.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BASELINE-NEGATIVE
// BASELINE-NEGATIVE: error: partir-simulate: baseline '{{.*}}bad-baseline-negative.json': 'step_time_s' and 'peak_memory_bytes' must be finite numbers >= 0
//
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-no-f32.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-F32
// NO-F32: error: partir-simulate: device file '{{.*}}bad-no-f32.json': 'peak_flops': missing key 'f32' (the fallback rate)
//
// RUN: not toast-opt %s --partir-simulate="device=file:%S/Inputs/bad-base.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BASE
// BASE: error: partir-simulate: device file '{{.*}}bad-base.json': 'base': unknown device 'v100'
//
// RUN: not toast-opt %s --partir-simulate="device=a100 baseline=%S/Inputs/unit-device.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BASELINE
// BASELINE: error: partir-simulate: baseline '{{.*}}unit-device.json' needs numbers 'step_time_s' and 'peak_memory_bytes' (a --partir-simulate JSON report)
//
// RUN: not toast-opt %s --partir-simulate="device=a100 function=nope" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FUNC
// NO-FUNC: error: no function @nope to simulate
//
// RUN: not toast-opt %s --partir-simulate="device=a100 function=core" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CORE
// CORE: error: cannot simulate PartIR:Core loops: lower the program to device-local PartIR:HLO first (--partir-lower-to-hlo)
//
// RUN: not toast-opt %s --partir-simulate="device=a100 function=recursive" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RECURSIVE
// RECURSIVE: error: cannot simulate recursive call to @recursive
//
// A device file that starts from a built-in device and overrides one axis
// is fine.
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/a100-slow-axis.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BASED
// BASED: === partir-simulate: @main on a100-2node (1 ops) ===
// A file with a base and no name is named after the file, not the base:
// RUN: toast-opt %s --partir-simulate="device=file:%S/Inputs/a100-small-memory.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STEM
// STEM: === partir-simulate: @main on a100-small-memory (1 ops) ===

module attributes {partir.mesh = #partir.mesh<["B"=2]>} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %e = stablehlo.exponential %x : tensor<4xf32>
    return %e : tensor<4xf32>
  }

  func.func private @core(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = partir.loop "B" [#partir.tile<0>] (%i: !partir.range<2>) {
      %s = partir.slice 0 %x[%i] : tensor<4xf32> -> tensor<2xf32>
      partir.yield %s : tensor<2xf32>
    } : tensor<4xf32>
    return %r : tensor<4xf32>
  }

  func.func private @recursive(%x: tensor<4xf32>) -> tensor<4xf32> {
    %r = func.call @recursive(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
