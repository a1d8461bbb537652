// Bad schedules and actions end with a located error and a non-zero exit.
//
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=nosuch=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: tactic 'BP': no input matches 'nosuch' (named inputs: x w1 w2)
// Each name is listed once, also one an argument has in two attributes:
// RUN: not toast-opt %S/Inputs/named-twice.mlir --partir-manual-partition="name=X axis=B inputs=zz=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=NAME-ONCE
// NAME-ONCE: error: tactic 'X': no input matches 'zz' (named inputs: x y)
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=arg7=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=ARGN
// ARGN: error: tactic 'BP': arg7 is out of range (@main has 3 arguments)
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=5 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=DIM
// DIM: error: tile: dimension 5 is out of range for 'tensor<256x8xf32>'
// DIM: error: tactic 'BP': input "x" (5) cannot be applied
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=Q inputs=x=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=AXIS
// AXIS: error: tactic 'BP': axis "Q" is not in the mesh #partir.mesh<["B"=4]>
// A dimension the axis does not divide is padded, but never to fewer rows
// than tiles, nor over a second axis of size > 1 (docs/dialects.md):
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=1 mesh=B=16" 2>&1 | FileCheck %s --check-prefix=DIVIDE
// DIVIDE: error: tile: dimension 1 of size 8 is not divisible into 16 tiles (axis "B" has size 16; padding takes one axis per dimension and at least one row per tile)
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=1 mesh=B=3,M=2" --partir-manual-partition="name=MP axis=M inputs=x=1" 2>&1 | FileCheck %s --check-prefix=PADTWICE
// PADTWICE: error: tile: dimension 1 of size 8 is not divisible into 6 tiles (axis "M" has size 2; padding takes one axis per dimension and at least one row per tile)
// A dynamic dimension has no static chunks; the message says so instead of
// printing ShapedType::kDynamic as a size:
// RUN: not toast-opt %S/Inputs/dynamic-rows.mlir --partir-manual-partition="name=X axis=B inputs=arg0=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: dynamic-rows.mlir:3:17: error: tile: dimension 0 of 'tensor<?x6xf32>' is dynamic and cannot be tiled
// DYNAMIC: error: tactic 'X': input "arg0" (0) cannot be applied
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=re:(=0 mesh=B=4" 2>&1 | FileCheck %s --check-prefix=REGEX
// REGEX: error: tactic 'BP': invalid regular expression '('
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x mesh=B=4" 2>&1 | FileCheck %s --check-prefix=SPEC
// SPEC: error: invalid input 'x': expected selector=DIM[@P], selector=first_divisible, selector=replicated, #N=operandO:D[@P], #N=resultR:D[@P] or #N=whole_op
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=0" 2>&1 | FileCheck %s --check-prefix=NOMESH
// NOMESH: error: no mesh: give one in the schedule or option
// A later mesh= that drops an axis an earlier tactic tiled on says so:
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=4" --partir-manual-partition="name=MP axis=M inputs=w1=1 mesh=M=2" 2>&1 | FileCheck %s --check-prefix=REMESH
// REMESH: error: partir.tiling entry B:0: axis "B" is not in the mesh #partir.mesh<["M"=2]> (did a later mesh= option replace the mesh an earlier tactic used?)
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-manual-partition="name=BP axis=B inputs=x=0 mesh=B=four" 2>&1 | FileCheck %s --check-prefix=MESHOPT
// MESHOPT: error: invalid mesh option 'B=four': expected axes like B=4,M=2
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/syntax-error.json 2>&1 | FileCheck %s --check-prefix=JSON
// JSON: error: in schedule '{{.*}}syntax-error.json': invalid JSON: [1:101, byte=101]: Expected , or } after object property
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/unknown-kind.json 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: error: in schedule '{{.*}}': schedule.tactics[0]: unsupported kind 'magic' (supported: 'manual', 'automatic')
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bad-spec.json 2>&1 | FileCheck %s --check-prefix=BADSPEC
// BADSPEC: error: in schedule '{{.*}}': schedule.tactics[0].inputs.arg0: expected a dimension, "first_divisible", "replicated", "operandO:D", "resultR:D" (each with an optional position "@P") or "whole_op"
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/bad-mesh.json 2>&1 | FileCheck %s --check-prefix=BADMESH
// BADMESH: error: in schedule '{{.*}}': schedule.mesh.B: expected a positive integer axis size
// llvm::json keeps only the last of repeated keys, which would drop axes or
// change their sizes without a word.
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/dup-mesh-key.json 2>&1 | FileCheck %s --check-prefix=DUPMESH
// DUPMESH: error: in schedule '{{.*}}dup-mesh-key.json': schedule: duplicate key 'mesh'
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/dup-mesh-axis.json 2>&1 | FileCheck %s --check-prefix=DUPAXIS
// DUPAXIS: error: in schedule '{{.*}}dup-mesh-axis.json': schedule.mesh: duplicate axis name 'B'
// An escaped spelling of a name is the same name.
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/dup-mesh-axis-escaped.json 2>&1 | FileCheck %s --check-prefix=DUPESCAPED
// DUPESCAPED: error: in schedule '{{.*}}dup-mesh-axis-escaped.json': schedule.mesh: duplicate axis name 'B"x'
// Escaped axis names, a tactic before the mesh and braces in strings keep the
// mesh's order and sizes.
// RUN: toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/escaped-mesh-axes.json | FileCheck %s --check-prefix=ESCAPED
// Axis names print as MLIR strings print (non-ASCII bytes escaped), so
// they parse back:
// ESCAPED: partir.mesh = #partir.mesh<["M}"=2, "\C3\A9"=4, "\F0\9F\98\80"=1, "/"=1]>
// ESCAPED: partir.loop "é" [#partir.tile<0>] ({{.*}}: !partir.range<4>)
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule=file=%S/Inputs/does-not-exist.json 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: cannot read schedule '{{.*}}does-not-exist.json'
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-schedule 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: error: --partir-schedule needs file=PATH
// RUN: not toast-opt %S/Inputs/matmul-chain.mlir --partir-atomic="value=x axis=B mesh=B=4" --partir-tile="value=x dim=0 axis=B" 2>&1 | FileCheck %s --check-prefix=ATOMIC
// ATOMIC: error: tile: value is atomic on axis "B"
