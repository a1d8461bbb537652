//===- SpecialFunctions.h - Special functions in double ---------*- C++ -*-===//
//
// Private to lib/toast/Interpreter: the special functions of CHLO that the
// C++ standard library lacks, evaluated in double precision.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_LIB_INTERPRETER_SPECIALFUNCTIONS_H
#define TOAST_LIB_INTERPRETER_SPECIALFUNCTIONS_H

namespace toast::interp::special {

/// Inverse error function on [-1, 1] (±inf at ±1, NaN outside).
double erfInv(double x);
/// Digamma (psi) function; NaN at non-positive integers.
double digamma(double x);
/// Exponentially scaled modified Bessel function of order 1: e^-|x| I1(x).
double besselI1e(double x);
/// Hurwitz zeta function zeta(s, q) for s > 1, q > 0 (NaN elsewhere,
/// except +inf at s == 1).
double zeta(double s, double q);
/// Polygamma function psi^(n)(x) for integer n >= 0.
double polygamma(double n, double x);

} // namespace toast::interp::special

#endif // TOAST_LIB_INTERPRETER_SPECIALFUNCTIONS_H
