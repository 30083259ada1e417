#!/usr/bin/env python3
"""fp16 copy of an fp32 ONNX encoder: float initializers and constants become float16
(clipped to the float16 range, so a -3.4e38 mask constant becomes -65504 rather than -inf,
which would turn 0 * mask into NaN), Cast-to-float nodes cast to float16, and the graph's
float outputs are declared float16. Inputs (int64 ids and masks) are unchanged.

Usage: python3 fp16.py IN.onnx OUT.onnx      (needs numpy and onnx)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

F16_MAX = float(np.finfo(np.float16).max)


def half(t):
    a = numpy_helper.to_array(t)
    if a.dtype != np.float32:
        return None
    return numpy_helper.from_array(np.clip(a, -F16_MAX, F16_MAX).astype(np.float16), t.name)


def main(src, dst):
    m = onnx.load(src)
    g = m.graph
    for i, t in enumerate(g.initializer):
        h = half(t)
        if h is not None:
            g.initializer[i].CopyFrom(h)
    for n in g.node:
        for a in n.attribute:
            if n.op_type == 'Cast' and a.name == 'to' and a.i == TensorProto.FLOAT:
                a.i = TensorProto.FLOAT16
            if a.type == onnx.AttributeProto.TENSOR:
                h = half(a.t)
                if h is not None:
                    a.t.CopyFrom(h)
    for o in g.output:
        if o.type.tensor_type.elem_type == TensorProto.FLOAT:
            o.type.tensor_type.elem_type = TensorProto.FLOAT16
    del g.value_info[:]  # shapes inferred for fp32 would contradict the new types
    onnx.checker.check_model(m)
    onnx.save(m, dst)
    print('wrote', dst)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit('usage: fp16.py IN.onnx OUT.onnx')
    main(sys.argv[1], sys.argv[2])
