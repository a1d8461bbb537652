//===- Registry.cpp - Model names, options and measurement ---------------===//

#include "ModelsInternal.h"
#include "toast/Simulator/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace toast;
using namespace toast::models;
using namespace toast::models::gen;

namespace {
struct Entry {
  ModelInfo info;
  Generator generator;
};
} // namespace

static ArrayRef<Entry> entries() {
  static const Entry table[] = {
      {{"mlp", "mlp",
        "two-layer MLP of the PartIR/TOAST papers (training step; "
        "--inference: forward only)"},
       buildMLP},
      {{"transformer", "transformer",
        "decoder-only transformer training step (default preset t32)"},
       buildTransformer},
      {{"itx", "itx",
        "TOAST ITX / PartIR IT32: inference transformer with RoPE, "
        "multi-query attention and a KV cache (prefill + decode steps, ~5B)"},
       buildInferenceTransformer},
      {{"gns", "gns",
        "TOAST/PartIR GNS: graph network training step (2048 nodes, 8192 "
        "edges, 24 message-passing steps, latent 2048, ~875M)"},
       buildGNS},
      {{"unet", "unet",
        "TOAST/PartIR U-Net: diffusion U-Net training step (9 down / 12 up "
        "residual blocks, 32-head attention, ~3.6B)"},
       buildUNet},
      {{"t32", "transformer",
        "PartIR T32: 32 layers, d_model 4096, 32 heads, batch 48, vocab 32k "
        "(~5B)"},
       buildTransformer},
      {{"t48", "transformer",
        "PartIR T48: 48 layers, d_model 8192, 64 heads, batch 64, vocab 32k"},
       buildTransformer},
      {{"t2b", "transformer",
        "TOAST T2B (Gemma 1 2B): 18 layers, d_model 2048, 8 heads, "
        "multi-query, vocab 256128"},
       buildTransformer},
      {{"t7b", "transformer",
        "TOAST T7B (Gemma 1 7B): 28 layers, d_model 3072, 16 heads, "
        "vocab 256128"},
       buildTransformer},
  };
  return table;
}

ArrayRef<ModelInfo> models::listModels() {
  static const SmallVector<ModelInfo> infos = [] {
    SmallVector<ModelInfo> result;
    for (const Entry &e : entries())
      result.push_back(e.info);
    return result;
  }();
  return infos;
}

ArrayRef<OptionInfo> models::listOptions() {
  static const OptionInfo options[] = {
      {"layers", "number of layers (blocks)"},
      {"batch", "batch size"},
      {"seq", "sequence length (itx: prompt length)"},
      {"d-model", "model width"},
      {"heads", "attention heads"},
      {"kv-heads", "key/value heads (1 = multi-query)"},
      {"key-size", "size of one attention head"},
      {"vocab", "vocabulary size"},
      {"hidden", "hidden width of the MLPs"},
      {"decode-steps",
       "itx: decode steps after the prefill (> 1: a stablehlo.while loop)"},
      {"nodes", "gns: graph nodes"},
      {"edges", "gns: graph edges"},
      {"mp-steps", "gns: message-passing steps"},
      {"latent", "gns: latent size"},
      {"mlp-layers", "gns: hidden layers per MLP"},
      {"channels", "unet: base channel count"},
      {"resolution", "unet: image height and width"},
  };
  return options;
}

bool gen::check(bool cond, const Twine &message, std::string &error) {
  if (!cond)
    error = message.str();
  return cond;
}

bool gen::applyOptions(StringRef model, const ModelOptions &options,
                       ArrayRef<IntOption> fields, std::string &error,
                       ArrayRef<StringRef> flags) {
  auto reject = [&](StringRef name) {
    std::string accepted;
    for (const IntOption &f : fields)
      accepted += " --" + f.name.str();
    for (StringRef flag : flags)
      accepted += " --" + flag.str();
    error = ("model '" + model + "' does not take --" + name +
             " (it takes:" + accepted + ")")
                .str();
    return false;
  };
  if (options.scan && !llvm::is_contained(flags, "scan"))
    return reject("scan");
  if (options.remat && !llvm::is_contained(flags, "remat"))
    return reject("remat");
  if (options.flattenLinear && !llvm::is_contained(flags, "flatten-linear"))
    return reject("flatten-linear");
  if (options.remat && !options.scan) {
    error = "--remat applies to --scan (it chooses how the backward loop "
            "gets each layer's residuals)";
    return false;
  }
  for (const auto &entry : options.ints) {
    StringRef name = entry.getKey();
    const IntOption *field = llvm::find_if(
        fields, [&](const IntOption &f) { return f.name == name; });
    if (field == fields.end())
      return reject(name);
    if (entry.getValue() <= 0) {
      error = ("--" + name + " must be positive, got " +
               Twine(entry.getValue()))
                  .str();
      return false;
    }
    *field->field = entry.getValue();
  }
  return true;
}

AdamState gen::declareTrainState(GraphBuilder &b, const Params &params,
                                const ModelOptions &options) {
  if (options.gradients)
    return {};
  return declareAdamState(b, params);
}

void gen::emitTrainStep(GraphBuilder &b, const Params &params,
                        const AdamState &state, Value loss,
                        const ModelOptions &options) {
  emitTrainStep(b, params, state, loss, b.grad(loss, params.values()), options);
}

void gen::emitTrainStep(GraphBuilder &b, const Params &params,
                        const AdamState &state, Value loss,
                        ArrayRef<Value> grads, const ModelOptions &options) {
  if (options.gradients)
    emitGradientResults(b, params, loss, grads);
  else
    emitAdamTrainStep(b, params, state, loss, grads);
}

LayerPrefix LayerPrefix::unrolled(int64_t layer) {
  return {("layer_" + Twine(layer) + ".").str(), {}};
}

LayerPrefix LayerPrefix::stacked(int64_t layers) {
  return {"layers.", {layers}};
}

Value LayerPrefix::declare(GraphBuilder &b, Params &params, StringRef name,
                           ArrayRef<int64_t> shape, Type elementType) const {
  SmallVector<int64_t> full(leading);
  llvm::append_range(full, shape);
  return params.add(b, path + name.str(), full, elementType);
}

Type gen::paramType(GraphBuilder &b, const ModelOptions &options) {
  if (options.dtype == "bf16")
    return b.bf16();
  if (options.dtype == "f64")
    return b.getBuilder().getF64Type();
  return b.f32();
}

/// Sizes so large that a tensor has 2^62 bytes or more would wrap the
/// 64-bit counts of parameters, bytes and FLOPs (sim::hasCountableBytes).
static std::optional<std::string> findTooLargeType(ModuleOp module) {
  std::optional<std::pair<Operation *, Type>> found =
      sim::findUncountableType(module);
  if (!found)
    return std::nullopt;
  std::string message;
  llvm::raw_string_ostream(message)
      << "the sizes make a " << found->second
      << " of 2^62 bytes or more, past 64-bit counts";
  return message;
}

OwningOpRef<ModuleOp> models::buildModel(MLIRContext *ctx, StringRef name,
                                         const ModelOptions &options,
                                         std::string &error) {
  if (options.dtype != "f32" && options.dtype != "bf16" &&
      options.dtype != "f64") {
    error = "unknown --dtype '" + options.dtype +
            "' (expected f32, bf16 or f64)";
    return nullptr;
  }
  if (!options.embedding.empty() && options.embedding != "gather" &&
      options.embedding != "onehot") {
    error = "unknown --embedding '" + options.embedding +
            "' (expected gather or onehot)";
    return nullptr;
  }
  for (const Entry &e : entries()) {
    if (e.info.name != name)
      continue;
    StringRef preset = e.info.name == e.info.family ? "" : name;
    OwningOpRef<ModuleOp> module = e.generator(ctx, preset, options, error);
    if (module)
      if (std::optional<std::string> tooLarge = findTooLargeType(*module)) {
        error = *tooLarge;
        return nullptr;
      }
    return module;
  }
  std::string known;
  for (const Entry &e : entries())
    known += " " + e.info.name;
  error = ("unknown model '" + name + "' (known:" + known + ")").str();
  return nullptr;
}

ModelStats models::measureModel(ModuleOp module) {
  ModelStats stats;
  auto func = module.lookupSymbol<func::FuncOp>("main");
  if (!func)
    return stats;
  stats.arguments = func.getNumArguments();
  for (BlockArgument arg : func.getArguments()) {
    auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                  "partir.name");
    if (!name || !name.getValue().starts_with("params."))
      continue;
    ++stats.parameterTensors;
    stats.parameters += cast<RankedTensorType>(arg.getType()).getNumElements();
  }
  func.walk([&](Operation *op) {
    if (op != func && !isa<func::ReturnOp>(op))
      ++stats.ops;
  });
  return stats;
}
