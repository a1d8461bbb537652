//===- SpecialFunctions.cpp - Special functions in double -----------------===//
//
// Textbook methods, chosen for accuracy rather than speed:
//   * erf_inv: a closed-form initial guess refined by Newton steps on erf
//     (or on erfc near ±1, where 1 - x is exact);
//   * digamma: reflection for x < 1/2, recurrence up to x >= 10, then the
//     asymptotic series;
//   * bessel_i1e: the power series of I1 for |x| <= 30, else the
//     asymptotic expansion of e^-x I1(x);
//   * zeta: Euler-Maclaurin summation; polygamma through zeta.
//
//===----------------------------------------------------------------------===//

#include "SpecialFunctions.h"

#include <cmath>
#include <limits>

using namespace toast::interp;

static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
static constexpr double kInf = std::numeric_limits<double>::infinity();

double special::erfInv(double x) {
  if (std::isnan(x) || x < -1.0 || x > 1.0)
    return kNaN;
  if (x == 1.0)
    return kInf;
  if (x == -1.0)
    return -kInf;
  if (x == 0.0)
    return x;
  double ax = std::fabs(x);
  // Winitzki's approximation (relative error ~2e-3).
  const double a = 0.147;
  double ln = std::log((1.0 - ax) * (1.0 + ax));
  double t = 2.0 / (M_PI * a) + ln / 2.0;
  double y = std::sqrt(std::sqrt(t * t - ln / a) - t);
  const double twoOverSqrtPi = 2.0 / std::sqrt(M_PI);
  for (int iteration = 0; iteration < 6; ++iteration) {
    double derivative = twoOverSqrtPi * std::exp(-y * y);
    if (derivative == 0.0)
      break;
    double step = ax <= 0.5 ? (std::erf(y) - ax) / derivative
                            : -(std::erfc(y) - (1.0 - ax)) / derivative;
    y -= step;
    if (std::fabs(step) <= 1e-17 * std::fabs(y))
      break;
  }
  return x < 0 ? -y : y;
}

double special::digamma(double x) {
  if (std::isnan(x) || x == -kInf)
    return kNaN;
  if (x == kInf)
    return kInf;
  if (x <= 0.0 && x == std::floor(x))
    return kNaN;
  double result = 0.0;
  if (x < 0.5) {
    // psi(x) = psi(1 - x) - pi / tan(pi x)
    result -= M_PI / std::tan(M_PI * x);
    x = 1.0 - x;
  }
  // From x >= 10 the series below is accurate to ~1e-16.
  while (x < 10.0) {
    result -= 1.0 / x;
    x += 1.0;
  }
  double inv = 1.0 / x, inv2 = inv * inv;
  double series =
      inv2 *
      (1.0 / 12 -
       inv2 * (1.0 / 120 -
               inv2 * (1.0 / 252 -
                       inv2 * (1.0 / 240 -
                               inv2 * (1.0 / 132 - inv2 * (691.0 / 32760))))));
  return result + std::log(x) - 0.5 * inv - series;
}

double special::besselI1e(double x) {
  if (std::isnan(x))
    return x;
  double ax = std::fabs(x);
  if (std::isinf(ax))
    return 0.0;
  double value;
  if (ax <= 30.0) {
    // I1(x) = sum_k (x/2)^(2k+1) / (k! (k+1)!)
    double q = ax * ax / 4.0;
    double term = ax / 2.0, sum = term;
    for (int k = 0; k < 500; ++k) {
      term *= q / ((k + 1.0) * (k + 2.0));
      sum += term;
      if (term <= 1e-17 * sum)
        break;
    }
    value = sum * std::exp(-ax);
  } else {
    // e^-x I1(x) ~ 1/sqrt(2 pi x) sum_k (-1)^k a_k / x^k,
    // a_k = prod_{j=1..k} (4 - (2j-1)^2) / (k! 8^k).
    double sum = 1.0, term = 1.0;
    for (int k = 1; k < 30; ++k) {
      double odd = 2.0 * k - 1.0;
      double next = -term * (4.0 - odd * odd) / (k * 8.0 * ax);
      if (std::fabs(next) >= std::fabs(term))
        break; // The asymptotic series started to diverge.
      term = next;
      sum += term;
      if (std::fabs(term) < 1e-17 * std::fabs(sum))
        break;
    }
    value = sum / std::sqrt(2.0 * M_PI * ax);
  }
  return x < 0 ? -value : value;
}

double special::zeta(double s, double q) {
  if (std::isnan(s) || std::isnan(q))
    return kNaN;
  if (s == 1.0)
    return kInf;
  if (s < 1.0 || q <= 0.0)
    return kNaN;
  // Euler-Maclaurin with N direct terms and Bernoulli corrections.
  const int n = 12;
  double sum = 0.0;
  for (int k = 0; k < n; ++k)
    sum += std::pow(q + k, -s);
  double a = q + n;
  sum += std::pow(a, 1.0 - s) / (s - 1.0) + 0.5 * std::pow(a, -s);
  static constexpr double kBernoulli[] = {
      1.0 / 6,       -1.0 / 30, 1.0 / 42,      -1.0 / 30,     5.0 / 66,
      -691.0 / 2730, 7.0 / 6,   -3617.0 / 510, 43867.0 / 798, -174611.0 / 330};
  // Term j: B_2j / (2j)! * s (s+1) ... (s+2j-2) * a^(-s-2j+1).
  double factor = s * std::pow(a, -s - 1.0); // j = 1: s / a^(s+1)
  double factorial = 2.0;                    // (2j)!
  for (int j = 1; j <= 10; ++j) {
    double term = kBernoulli[j - 1] / factorial * factor;
    sum += term;
    if (std::fabs(term) < 1e-17 * std::fabs(sum))
      break;
    // Advance to j + 1.
    factor *= (s + 2 * j - 1) * (s + 2 * j) / (a * a);
    factorial *= (2.0 * j + 1) * (2.0 * j + 2);
  }
  return sum;
}

double special::polygamma(double n, double x) {
  if (std::isnan(n) || std::isnan(x) || n < 0 || n != std::floor(n))
    return kNaN;
  if (n == 0)
    return digamma(x);
  // psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x)
  double factorial = std::tgamma(n + 1.0);
  double sign = std::fmod(n, 2.0) == 0.0 ? -1.0 : 1.0;
  return sign * factorial * zeta(n + 1.0, x);
}
