//===- SolveOps.cpp - Linear algebra and Fourier transforms ---------------===//
//
// triangular_solve and cholesky on batches of real matrices (computed in
// double, rounded once), and fft (FFT, IFFT, RFFT, IRFFT) as direct
// discrete Fourier transforms over the trailing dimensions.
//
//===----------------------------------------------------------------------===//

#include "OpImpl.h"

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include <cmath>
#include <complex>

using namespace mlir;
using namespace toast::interp;
using namespace toast::interp::detail;
namespace hlo = toast::stablehlo;

namespace {

LogicalResult requireFloat(Operation *op, const Tensor &t) {
  if (!t.getElementType().isFloat())
    return op->emitError("toast-run: '")
           << op->getName() << "' supports real floating-point types only";
  return success();
}

/// Solves op(A) X = B (left side) or X op(A) = B per batch, using only the
/// lower or upper triangle of A.
LogicalResult evalTriangularSolve(Interpreter &, Operation *op,
                                  ArrayRef<Tensor> operands,
                                  SmallVectorImpl<Tensor> &results) {
  auto ts = cast<hlo::TriangularSolveOp>(op);
  const Tensor &a = operands[0], &b = operands[1];
  if (failed(requireFloat(op, a)))
    return failure();
  bool leftSide = ts.getLeftSide(), lower = ts.getLower(),
       unitDiagonal = ts.getUnitDiagonal();
  bool transpose = ts.getTransposeA() != hlo::Transpose::NO_TRANSPOSE;
  int64_t rank = b.getRank();
  int64_t m = a.getDim(rank - 1);
  int64_t rows = b.getDim(rank - 2), cols = b.getDim(rank - 1);
  int64_t batches = rows * cols != 0 ? b.getNumElements() / (rows * cols) : 0;
  Tensor result = makeResult(op);
  // T = op(triangle(A)), then solve T X = B, or T^T X^T = B^T on the right
  // side (which swaps the roles of lower and upper).
  std::vector<double> t(m * m), x;
  for (int64_t batch = 0; batch < batches; ++batch) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < m; ++j) {
        bool inTriangle = lower ? j <= i : j >= i;
        double v = inTriangle ? a.getFloat(batch * m * m + i * m + j) : 0.0;
        if (i == j && unitDiagonal)
          v = 1.0;
        t[transpose ? j * m + i : i * m + j] = v;
      }
    bool tLower = lower != transpose;
    if (!leftSide) { // X T = B  <=>  T^T X^T = B^T
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = i + 1; j < m; ++j)
          std::swap(t[i * m + j], t[j * m + i]);
      tLower = !tLower;
    }
    // Right-hand sides as columns of an m x r matrix.
    int64_t r = leftSide ? cols : rows;
    x.assign(m * r, 0.0);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        double v = b.getFloat(batch * rows * cols + i * cols + j);
        x[leftSide ? i * r + j : j * r + i] = v;
      }
    for (int64_t c = 0; c < r; ++c) {
      for (int64_t step = 0; step < m; ++step) {
        int64_t i = tLower ? step : m - 1 - step;
        double sum = x[i * r + c];
        if (tLower)
          for (int64_t j = 0; j < i; ++j)
            sum -= t[i * m + j] * x[j * r + c];
        else
          for (int64_t j = i + 1; j < m; ++j)
            sum -= t[i * m + j] * x[j * r + c];
        x[i * r + c] = sum / t[i * m + i];
      }
    }
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        result.setFloat(batch * rows * cols + i * cols + j,
                        x[leftSide ? i * r + j : j * r + i]);
  }
  results.push_back(std::move(result));
  return success();
}

/// A = L L^T (lower) or A = U^T U (upper) per batch; the other triangle of
/// the result is zero.
LogicalResult evalCholesky(Interpreter &, Operation *op,
                           ArrayRef<Tensor> operands,
                           SmallVectorImpl<Tensor> &results) {
  const Tensor &a = operands[0];
  if (failed(requireFloat(op, a)))
    return failure();
  bool lower = cast<hlo::CholeskyOp>(op).getLower();
  int64_t n = a.getDim(a.getRank() - 1);
  int64_t batches = n ? a.getNumElements() / (n * n) : 0;
  Tensor result = makeResult(op);
  std::vector<double> l(n * n);
  for (int64_t batch = 0; batch < batches; ++batch) {
    int64_t base = batch * n * n;
    // Read the used triangle as the lower factor's source.
    auto at = [&](int64_t i, int64_t j) {
      return lower ? a.getFloat(base + i * n + j)
                   : a.getFloat(base + j * n + i);
    };
    std::fill(l.begin(), l.end(), 0.0);
    for (int64_t j = 0; j < n; ++j) {
      double d = at(j, j);
      for (int64_t k = 0; k < j; ++k)
        d -= l[j * n + k] * l[j * n + k];
      double djj = std::sqrt(d); // NaN when not positive definite.
      l[j * n + j] = djj;
      for (int64_t i = j + 1; i < n; ++i) {
        double s = at(i, j);
        for (int64_t k = 0; k < j; ++k)
          s -= l[i * n + k] * l[j * n + k];
        l[i * n + j] = s / djj;
      }
    }
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        result.setFloat(base + i * n + j, lower ? l[i * n + j] : l[j * n + i]);
  }
  results.push_back(std::move(result));
  return success();
}

//===--- fft --------------------------------------------------------------===//

using Complex = std::complex<double>;

/// In-place DFT along dimension `dim` of `data` (row-major `shape`).
void dftAlong(std::vector<Complex> &data, ArrayRef<int64_t> shape, int64_t dim,
              bool inverse) {
  int64_t len = shape[dim];
  if (len == 0)
    return;
  int64_t inner = 1, total = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    total *= shape[d];
    if (static_cast<int64_t>(d) > dim)
      inner *= shape[d];
  }
  std::vector<Complex> line(len), out(len);
  double sign = inverse ? 1.0 : -1.0;
  for (int64_t start = 0; start < total; ++start) {
    if ((start / inner) % len != 0)
      continue; // Not the first element of a line along `dim`.
    for (int64_t i = 0; i < len; ++i)
      line[i] = data[start + i * inner];
    for (int64_t k = 0; k < len; ++k) {
      Complex sum = 0;
      for (int64_t i = 0; i < len; ++i)
        sum += line[i] *
               std::polar(1.0, sign * 2.0 * M_PI * double((i * k) % len) / len);
      out[k] = inverse ? sum / double(len) : sum;
    }
    for (int64_t k = 0; k < len; ++k)
      data[start + k * inner] = out[k];
  }
}

LogicalResult evalFft(Interpreter &, Operation *op, ArrayRef<Tensor> operands,
                      SmallVectorImpl<Tensor> &results) {
  auto fft = cast<hlo::FftOp>(op);
  const Tensor &x = operands[0];
  Tensor result = makeResult(op);
  int64_t rank = x.getRank();
  int64_t fftRank = fft.getFftLength().size();
  hlo::FftType type = fft.getFftType();
  // Work on complex values in the shape of the complex side.
  bool realOut = type == hlo::FftType::IRFFT;
  SmallVector<int64_t> shape(realOut ? x.getShape() : result.getShape());
  std::vector<Complex> data(x.getNumElements());
  for (int64_t i = 0; i < x.getNumElements(); ++i)
    data[i] = x.getElementType().isComplex() ? x.getComplex(i)
                                             : Complex(x.getFloat(i), 0.0);
  if (type == hlo::FftType::RFFT) {
    // Full transform of the last dimension, truncated to n/2 + 1.
    SmallVector<int64_t> full(x.getShape());
    dftAlong(data, full, rank - 1, false);
    int64_t n = full[rank - 1], kept = shape[rank - 1];
    std::vector<Complex> cut(result.getNumElements());
    for (int64_t row = 0; n && row < x.getNumElements() / n; ++row)
      for (int64_t k = 0; k < kept; ++k)
        cut[row * kept + k] = data[row * n + k];
    data = std::move(cut);
    for (int64_t d = rank - fftRank; d < rank - 1; ++d)
      dftAlong(data, shape, d, false);
  } else if (type == hlo::FftType::IRFFT) {
    for (int64_t d = rank - fftRank; d < rank - 1; ++d)
      dftAlong(data, shape, d, true);
    // Rebuild the full Hermitian spectrum of the last dimension.
    int64_t half = shape[rank - 1], n = result.getDim(rank - 1);
    int64_t rowsCount = half ? x.getNumElements() / half : 0;
    std::vector<Complex> full(rowsCount * n);
    for (int64_t row = 0; row < rowsCount; ++row)
      for (int64_t k = 0; k < n; ++k)
        full[row * n + k] = k < half ? data[row * half + k]
                                     : std::conj(data[row * half + (n - k)]);
    SmallVector<int64_t> fullShape(result.getShape());
    dftAlong(full, fullShape, rank - 1, true);
    for (int64_t i = 0; i < result.getNumElements(); ++i)
      result.setFloat(i, full[i].real());
    results.push_back(std::move(result));
    return success();
  } else {
    for (int64_t d = rank - fftRank; d < rank; ++d)
      dftAlong(data, shape, d, type == hlo::FftType::IFFT);
  }
  for (int64_t i = 0; i < result.getNumElements(); ++i)
    result.setComplex(i, data[i]);
  results.push_back(std::move(result));
  return success();
}
} // namespace

void toast::interp::detail::registerSolveOps(OpRegistry &r) {
  r.add("stablehlo.triangular_solve", evalTriangularSolve);
  r.add("stablehlo.cholesky", evalCholesky);
  r.add("stablehlo.fft", evalFft);
}
