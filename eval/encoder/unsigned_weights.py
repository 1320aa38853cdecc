"""Rewrite an int8 model's integer matrix products to take unsigned weights, so that every x86-64 CPU computes the same.

quantize_dynamic(weight_type=QInt8) makes MatMulInteger nodes of uint8 activations by int8 weights. On a CPU with AVX2 and
no VNNI, onnxruntime's kernel for that pair (vpmaddubsw) adds two products in 16 bits and saturates, so its answers differ
from those of a VNNI CPU (vpdpbusd, exact) by up to a few hundredths of a probability. With both sides uint8, every kernel
widens to 16 bits before it multiplies and sums in 32 bits: exact on each CPU. The rewrite changes no product: a weight w
with zero point z becomes w + 128 with zero point z + 128, so (w + 128) - (z + 128) = w - z.

  python eval/encoder/unsigned_weights.py MODEL.onnx [MODEL.onnx ...]   rewrites each file in place
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper


def to_unsigned_weights(path: str) -> int:
    """Rewrites the file in place; returns how many weight tensors became uint8."""
    model = onnx.load(path)
    initializers = {t.name: t for t in model.graph.initializer}
    names = set()
    for node in model.graph.node:
        if node.op_type != "MatMulInteger" or len(node.input) < 4:
            continue
        weight, zero_point = initializers.get(node.input[1]), initializers.get(node.input[3])
        if weight is None or zero_point is None:
            continue
        if weight.data_type == TensorProto.INT8 and zero_point.data_type == TensorProto.INT8:
            names.update((weight.name, zero_point.name))
    for name in names:
        tensor = initializers[name]
        shifted = (numpy_helper.to_array(tensor).astype(np.int16) + 128).astype(np.uint8)
        tensor.CopyFrom(numpy_helper.from_array(shifted, name))
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return len(names) // 2


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(f"{path}: {to_unsigned_weights(path)} weight matrices now uint8")
