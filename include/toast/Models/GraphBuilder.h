//===- GraphBuilder.h - StableHLO builder with reverse-mode AD --*- C++ -*-===//
//
// GraphBuilder writes one `func.func @main` of StableHLO ops in the shapes
// JAX exports (explicit broadcast_in_dim, dot_general with batching
// dimensions, reduce with a region, ...). Every emitter that produces a
// differentiable value also records on a tape how to emit its
// vector-Jacobian product (VJP); `grad(loss, wrt)` then walks the tape
// backwards and emits the backward pass into the same function, the way
// jax.grad's transpose rules would.
//
// Binary elementwise emitters require operands of identical shape (as
// StableHLO does); broadcasting is explicit through `broadcastInDim` or the
// `full*` helpers.
//
//===----------------------------------------------------------------------===//
#ifndef TOAST_MODELS_GRAPHBUILDER_H
#define TOAST_MODELS_GRAPHBUILDER_H

#include "toast/Dialect/StableHLO/IR/StablehloOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <string>
#include <vector>

namespace toast::models {

/// Dimension numbers of a dot_general, as in StableHLO.
struct DotDims {
  llvm::SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
};

/// Dimension numbers of a 2-D NHWC/HWIO convolution with `SAME`-style
/// symmetric padding.
struct Conv2DSpec {
  int64_t stride = 1;
  int64_t padding = 0;
};

class GraphBuilder {
public:
  /// A VJP rule: given the cotangent of the output and which inputs need a
  /// gradient, returns one cotangent per input (null where not needed).
  using VjpFn = std::function<llvm::SmallVector<mlir::Value, 3>(
      mlir::Value cotangent, llvm::ArrayRef<bool> needed)>;

  /// Creates `module @<moduleName> { func.func public @main() }` and sets the
  /// insertion point into the function's body.
  GraphBuilder(mlir::MLIRContext *ctx, llvm::StringRef moduleName);

  mlir::MLIRContext *getContext() const { return ctx; }
  mlir::ModuleOp getModule() const { return *module; }
  mlir::func::FuncOp getFunction() const { return func; }
  mlir::OpBuilder &getBuilder() { return builder; }
  mlir::Location getLoc() const { return loc; }

  //===--------------------------------------------------------------------===//
  // Function signature
  //===--------------------------------------------------------------------===//

  /// Appends a function argument named `name` (attributes `partir.name` and
  /// `jax.arg_info`).
  mlir::Value argument(llvm::StringRef name, llvm::ArrayRef<int64_t> shape,
                       mlir::Type elementType);
  /// Like `argument`, but the argument stays behind all arguments declared
  /// later with `argument` (for inputs needed before the parameters are
  /// known, e.g. `batch.*` of a model that declares parameters as it goes).
  mlir::Value trailingArgument(llvm::StringRef name,
                               llvm::ArrayRef<int64_t> shape,
                               mlir::Type elementType);
  /// Appends a function result named `name` (attribute `jax.result_info`).
  void result(llvm::StringRef name, mlir::Value value);
  /// Emits the terminator, fixes the function type and verifies the module.
  /// Returns the finished module, or null after printing diagnostics.
  mlir::OwningOpRef<mlir::ModuleOp> finish();

  //===--------------------------------------------------------------------===//
  // Types and constants
  //===--------------------------------------------------------------------===//

  mlir::Type f32() { return builder.getF32Type(); }
  mlir::Type bf16() { return builder.getBF16Type(); }
  mlir::Type i32() { return builder.getI32Type(); }
  mlir::Type i1() { return builder.getI1Type(); }
  /// The type statistics, softmax and losses are computed in: f32 for
  /// narrower floats (bf16), else the value's own type (f32, f64).
  mlir::Type computeType(mlir::Value v);
  /// `convert(v, computeType(v))`.
  mlir::Value upcast(mlir::Value v) { return convert(v, computeType(v)); }
  static mlir::RankedTensorType typeOf(mlir::Value v);
  static llvm::ArrayRef<int64_t> shapeOf(mlir::Value v);
  static int64_t rankOf(mlir::Value v) { return shapeOf(v).size(); }
  static mlir::Type elementTypeOf(mlir::Value v);
  mlir::RankedTensorType tensorType(llvm::ArrayRef<int64_t> shape,
                                    mlir::Type elementType);

  /// A rank-0 constant, `stablehlo.constant dense<v> : tensor<elt>`.
  mlir::Value scalar(double v, mlir::Type elementType);
  /// A splat of `v`: a scalar constant broadcast to `shape` (as JAX emits).
  mlir::Value full(double v, llvm::ArrayRef<int64_t> shape,
                   mlir::Type elementType);
  /// `full(v)` with the shape and element type of `like`.
  mlir::Value fullLike(double v, mlir::Value like);
  mlir::Value iota(llvm::ArrayRef<int64_t> shape, int64_t dim,
                   mlir::Type elementType);

  //===--------------------------------------------------------------------===//
  // Elementwise (differentiable unless noted)
  //===--------------------------------------------------------------------===//

  mlir::Value add(mlir::Value a, mlir::Value b);
  mlir::Value sub(mlir::Value a, mlir::Value b);
  mlir::Value mul(mlir::Value a, mlir::Value b);
  mlir::Value div(mlir::Value a, mlir::Value b);
  mlir::Value max(mlir::Value a, mlir::Value b);
  mlir::Value pow(mlir::Value a, mlir::Value b); ///< No VJP (constants only).
  mlir::Value neg(mlir::Value a);
  mlir::Value exp(mlir::Value a);
  mlir::Value log(mlir::Value a);
  mlir::Value tanh(mlir::Value a);
  mlir::Value rsqrt(mlir::Value a);
  mlir::Value sqrt(mlir::Value a);
  mlir::Value logistic(mlir::Value a);
  mlir::Value sin(mlir::Value a); ///< No VJP.
  mlir::Value cos(mlir::Value a); ///< No VJP.
  /// Element type conversion; the identity when the type already matches.
  mlir::Value convert(mlir::Value a, mlir::Type elementType);
  /// Comparison (not differentiable); the compare type follows the operands.
  mlir::Value compare(mlir::Value a, mlir::Value b,
                      stablehlo::ComparisonDirection dir);
  mlir::Value select(mlir::Value pred, mlir::Value onTrue, mlir::Value onFalse);

  /// Shorthands: `a op full(c)`.
  mlir::Value addScalar(mlir::Value a, double c);
  mlir::Value mulScalar(mlir::Value a, double c);

  //===--------------------------------------------------------------------===//
  // Data movement
  //===--------------------------------------------------------------------===//

  mlir::Value broadcastInDim(mlir::Value a, llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<int64_t> dims);
  mlir::Value reshape(mlir::Value a, llvm::ArrayRef<int64_t> shape);
  mlir::Value transpose(mlir::Value a, llvm::ArrayRef<int64_t> perm);
  /// Unit-stride slice `[start, limit)`.
  mlir::Value slice(mlir::Value a, llvm::ArrayRef<int64_t> start,
                    llvm::ArrayRef<int64_t> limit);
  /// `a[index]` along dimension `dim`, dropping it (slice + reshape).
  mlir::Value index(mlir::Value a, int64_t dim, int64_t index);
  /// Edge padding with `value`.
  mlir::Value pad(mlir::Value a, double value, llvm::ArrayRef<int64_t> low,
                  llvm::ArrayRef<int64_t> high);
  mlir::Value concatenate(llvm::ArrayRef<mlir::Value> values, int64_t dim);
  mlir::Value reverse(mlir::Value a, llvm::ArrayRef<int64_t> dims);
  /// Rows of `table` ([N, ...]) selected by integer `indices` (any shape):
  /// result shape `indices.shape ++ table.shape[1:]` (JAX's `table[idx]`).
  mlir::Value take(mlir::Value table, mlir::Value indices);
  /// Segment sum: a zero [numSegments, ...] tensor into which the rows of
  /// `updates` ([N, ...]) are scatter-added at `indices` ([N]).
  mlir::Value scatterAdd(mlir::Value updates, mlir::Value indices,
                         int64_t numSegments);
  /// dynamic_slice / dynamic_update_slice with scalar i32 start indices
  /// (not differentiable).
  mlir::Value dynamicSlice(mlir::Value a, llvm::ArrayRef<mlir::Value> starts,
                           llvm::ArrayRef<int64_t> sizes);
  mlir::Value dynamicUpdateSlice(mlir::Value a, mlir::Value update,
                                 llvm::ArrayRef<mlir::Value> starts);
  /// `a[i]` of a stacked `a` [N, ...] for a scalar i32 `i`: dynamic_slice of
  /// size [1, ...] at (i, 0, ...) and a reshape dropping the leading 1 (JAX's
  /// dynamic_index_in_dim). Not differentiable.
  mlir::Value dynamicIndex(mlir::Value a, mlir::Value i);
  /// `a` with `a[i] = update`: `update` reshaped to [1, ...] and written with
  /// dynamic_update_slice at (i, 0, ...) (JAX's dynamic_update_index_in_dim).
  /// Not differentiable.
  mlir::Value dynamicUpdateIndex(mlir::Value a, mlir::Value update,
                                 mlir::Value i);

  //===--------------------------------------------------------------------===//
  // Loops
  //===--------------------------------------------------------------------===//

  /// One iteration of `forLoop`: receives the counter and the carried values
  /// (block arguments of the body) and returns the next carried values, of
  /// the same types.
  using LoopBody = llvm::function_ref<llvm::SmallVector<mlir::Value>(
      mlir::Value i, llvm::ArrayRef<mlir::Value> carry)>;
  /// `for i in [0, n)` as the stablehlo.while jax.lax.fori_loop and scan
  /// lower to: the carry is (i : tensor<i32>, carry...), `cond` is `i < n`,
  /// `body` emits the iteration and then `i + 1`. Returns the final carried
  /// values without the counter. The body must use only its arguments (and
  /// what it emits): pass loop-invariant values through `carry`, as JAX
  /// does with closed-over values. Not differentiable; emitters called by
  /// `body` record as usual (see `TapeScope`).
  llvm::SmallVector<mlir::Value>
  forLoop(int64_t n, llvm::ArrayRef<mlir::Value> carry, LoopBody body);

  //===--------------------------------------------------------------------===//
  // Contractions and reductions
  //===--------------------------------------------------------------------===//

  /// dot_general; the result has the batching dims, then the free dims of
  /// `lhs`, then those of `rhs`, and the element type of `lhs`.
  mlir::Value dotGeneral(mlir::Value lhs, mlir::Value rhs, const DotDims &dims);
  /// `lhs @ rhs`, contracting the last dimension of lhs with the first of rhs.
  mlir::Value matmul(mlir::Value lhs, mlir::Value rhs);
  mlir::Value reduceSum(mlir::Value a, llvm::ArrayRef<int64_t> dims);
  mlir::Value reduceMax(mlir::Value a, llvm::ArrayRef<int64_t> dims);
  /// Index of the maximum along `dim` (a two-input reduce with a
  /// compare/select region, as jnp.argmax emits). Not differentiable.
  mlir::Value argmax(mlir::Value a, int64_t dim, mlir::Type indexType);
  /// 2-D convolution, NHWC input, HWIO kernel.
  mlir::Value conv2d(mlir::Value input, mlir::Value kernel,
                     const Conv2DSpec &spec);

  //===--------------------------------------------------------------------===//
  // Reverse-mode autodiff
  //===--------------------------------------------------------------------===//

  /// Returns `d loss / d wrt[i]` for each `wrt` (zeros when `loss` does not
  /// depend on it). `loss` must be a scalar float.
  llvm::SmallVector<mlir::Value> grad(mlir::Value loss,
                                      llvm::ArrayRef<mlir::Value> wrt);
  /// The vector-Jacobian product of several outputs: for each `wrt`, the sum
  /// over k of the cotangent `seeds[k]` of `outputs[k]` pulled back to it
  /// (zeros when no output depends on it). `grad(loss, wrt)` is
  /// `vjp({loss}, {1}, wrt)`. Lets a backward pass be emitted in pieces, e.g.
  /// around a loop whose body differentiates one layer.
  llvm::SmallVector<mlir::Value> vjp(llvm::ArrayRef<mlir::Value> outputs,
                                     llvm::ArrayRef<mlir::Value> seeds,
                                     llvm::ArrayRef<mlir::Value> wrt);
  /// Whether emitters currently record VJPs (true by default).
  bool isRecording() const { return recording; }
  void setRecording(bool on) { recording = on; }
  /// Number of ops on the tape.
  size_t tapeSize() const { return tape.size(); }

  /// RAII: stop recording (gradients do not flow through what is emitted
  /// inside the scope; jax.lax.stop_gradient).
  class NoGradScope {
  public:
    explicit NoGradScope(GraphBuilder &b) : b(b), saved(b.recording) {
      b.recording = false;
    }
    ~NoGradScope() { b.recording = saved; }

  private:
    GraphBuilder &b;
    bool saved;
  };

  /// RAII: what is recorded inside the scope is dropped from the tape at its
  /// end. For a backward pass emitted inside a loop body: the body's values
  /// do not exist outside of it, so no later `grad` may see them.
  class TapeScope {
  public:
    explicit TapeScope(GraphBuilder &b) : b(b), size(b.tape.size()) {}
    ~TapeScope() { b.tape.erase(b.tape.begin() + size, b.tape.end()); }

  private:
    GraphBuilder &b;
    size_t size;
  };

  /// Records `vjp` for `output` = f(`inputs`). Used by the emitters; public
  /// so that model code may add composite rules.
  void record(mlir::Value output, llvm::ArrayRef<mlir::Value> inputs,
              VjpFn vjp);

private:
  struct TapeNode {
    llvm::SmallVector<mlir::Value, 3> inputs;
    mlir::Value output;
    VjpFn vjp;
  };

  template <typename OpTy> mlir::Value unary(mlir::Value a);
  template <typename OpTy> mlir::Value binary(mlir::Value a, mlir::Value b);
  mlir::Value reduce(mlir::Value a, llvm::ArrayRef<int64_t> dims, double init,
                     bool isMax);
  /// A raw stablehlo.convolution (not recorded). `padding` holds (low,
  /// high) per spatial dimension.
  mlir::Value convolution(mlir::Value lhs, mlir::Value rhs,
                          stablehlo::ConvDimensionNumbersAttr dims,
                          llvm::ArrayRef<int64_t> resultShape,
                          llvm::ArrayRef<int64_t> strides,
                          llvm::ArrayRef<int64_t> padding,
                          llvm::ArrayRef<int64_t> lhsDilation,
                          llvm::ArrayRef<int64_t> rhsDilation);
  /// Sums `g` down to `shape` over the dimensions `broadcastInDim` expanded.
  mlir::Value unbroadcast(mlir::Value g, mlir::Value like,
                          llvm::ArrayRef<int64_t> dims);
  mlir::Value insertArgument(unsigned index, llvm::StringRef name,
                             llvm::ArrayRef<int64_t> shape,
                             mlir::Type elementType);

  mlir::MLIRContext *ctx;
  mlir::OpBuilder builder;
  mlir::Location loc;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  llvm::SmallVector<mlir::Value> results;
  llvm::SmallVector<std::string> resultNames;
  std::vector<TapeNode> tape;
  bool recording = true;
  unsigned trailingArguments = 0;
  /// The attributes of the entry block's arguments, in order: finish()
  /// sets the signature once (a signature rebuilt per argument made
  /// generation quadratic in the parameters: 38 s for 1,000 layers).
  std::vector<mlir::DictionaryAttr> argAttrs;
};

} // namespace toast::models

#endif // TOAST_MODELS_GRAPHBUILDER_H
