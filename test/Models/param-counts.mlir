// Full-size presets: parameter counts within 10% of the papers' (Gemma's
// published 2.5B/8.5B with embeddings, T32 ~5B, ITX ~5B, GNS ~875M, U-Net ~3.6B). Generation takes
// well under a second each.
// RUN: toast-models t2b -o /dev/null 2>&1 | %python %S/Inputs/check_param_count.py 2.5e9
// RUN: toast-models t7b -o /dev/null 2>&1 | %python %S/Inputs/check_param_count.py 8.5e9
// RUN: toast-models t32 -o /dev/null 2>&1 | %python %S/Inputs/check_param_count.py 5e9
// RUN: toast-models itx -o /dev/null 2>&1 | %python %S/Inputs/check_param_count.py 5e9
// RUN: toast-models gns -o /dev/null 2>&1 | %python %S/Inputs/check_param_count.py 875e6
// RUN: toast-models unet -o /dev/null 2>&1 | %python %S/Inputs/check_param_count.py 3.6e9
// T32 has 289 parameter tensors (PartIR section 7.3: 9 per block + embedding).
// RUN: toast-models t32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=T32
// T32: t32: {{[0-9]+}} parameters ({{.*}}) in 289 tensors
