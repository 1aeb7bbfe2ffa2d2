"""Graph surgery on the bundled model's ONNX file, for the int8 model (int8.py).

``widen`` turns the bundled file's int8 weights (``Cast(int8) * scale``, widened at every
load) into float initializers, so onnxruntime can quantise them again for int8 arithmetic.
``fuse_attention`` replaces each layer's self-attention (three projections, the head
reshapes and transposes, the scaled product, the mask, the softmax and its NaN guard)
by onnxruntime's one ``Attention`` operator, which the quantiser turns into ``QAttention``:
one int8 product for the three projections and no per-head shuffling in between. In float
it gives the same vectors (cosine 1.0000 on 300 real chunks); with int8 it is what makes
the derived model fast (docs/benchmarks.md). ``smooth`` moves the few very wide channels
of each layer norm's output into the weights that read it (SmoothQuant): a per-channel
``Mul`` before the product, its inverse folded into the weight rows; in float nothing
changes, but the quantised activations lose far less (cosine to the exact vectors, mean
0.9970 -> 0.9992 on 400 real chunks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def widen(model: Any) -> int:
    """Fold every ``Cast(int8 initializer) * scale`` into a float initializer, in place;
    returns how many were folded."""
    import numpy as np
    from onnx import numpy_helper

    graph = model.graph
    init = {i.name: i for i in graph.initializer}
    made_by = {o: n for n in graph.node for o in n.output}
    folded: set[int] = set()
    widened = []
    for n in graph.node:
        if n.op_type != "Mul" or len(n.input) != 2:
            continue
        cast = made_by.get(n.input[0])
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in init or \
                n.input[1] not in init:
            continue
        widened.append((cast.input[0], n.input[1], n.output[0]))
        folded.update((id(n), id(cast)))
    _keep_nodes(graph, [n for n in graph.node if id(n) not in folded])
    for weight, scale, name in widened:  # one weight at a time: the peak memory
        q = numpy_helper.to_array(init[weight]).astype(np.float32)
        _add_initializer(graph, q * numpy_helper.to_array(init[scale]).astype(np.float32), name)
    _drop_unused_initializers(graph)
    return len(widened)


def projections(model: Any, rows: int, cols: int) -> list[Any]:
    """The MatMul nodes whose constant weight has shape ``[rows, cols]``, in graph order."""
    dims = {i.name: list(i.dims) for i in model.graph.initializer}
    return [n for n in model.graph.node
            if n.op_type == "MatMul" and dims.get(n.input[1]) == [rows, cols]]


def fuse_attention(model: Any, hidden: int, heads: int) -> int:
    """Replace each self-attention block by one ``com.microsoft`` ``Attention`` node (the
    model's ``attention_mask`` passed as its mask), in place; returns how many."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    init = {i.name: i for i in graph.initializer}
    users: dict[str, list[Any]] = {}
    for n in graph.node:
        for x in n.input:
            users.setdefault(x, []).append(n)
    square = {id(n) for n in projections(model, hidden, hidden)}
    mask = "attention_mask_int32"
    added: dict[int, Any] = {}  # id of the output projection -> the node to put before it
    for n in graph.node:
        qkv = [u for u in users.get(n.output[0], []) if id(u) in square] if n.output else []
        if len(qkv) != 3:
            continue
        biases: list[Any] = [_only(users.get(mm.output[0], []), "Add") for mm in qkv]
        out_proj = _next_projection(biases[2].output[0], users, square)
        if out_proj is None or any(b is None or b.input[1] not in init for b in biases):
            continue
        layer = len(added)
        weight = np.concatenate([numpy_helper.to_array(init[mm.input[1]]) for mm in qkv], 1)
        bias = np.concatenate([numpy_helper.to_array(init[b.input[1]]) for b in biases])
        names = (f"attention_{layer}.qkv_weight", f"attention_{layer}.qkv_bias")
        _add_initializer(graph, weight.astype(np.float32), names[0])
        _add_initializer(graph, bias.astype(np.float32), names[1])
        context = f"attention_{layer}.context"
        added[id(out_proj)] = helper.make_node(
            "Attention", [n.output[0], *names, mask], [context], name=f"attention_{layer}",
            domain="com.microsoft", num_heads=heads)
        out_proj.input[0] = context
    if not added:
        return 0
    nodes = [helper.make_node("Cast", ["attention_mask"], [mask], name="attention_mask_cast",
                              to=TensorProto.INT32)]
    for n in graph.node:
        if id(n) in added:
            nodes.append(added[id(n)])
        nodes.append(n)
    _keep_nodes(graph, _needed(nodes, [o.name for o in graph.output]))
    _drop_unused_initializers(graph)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return len(added)


def activation_ranges(model: Any, names: list[str], feeds: list[dict[str, Any]]) -> dict:
    """The largest magnitude each channel of the tensors ``names`` reaches over ``feeds``,
    computed in float with no graph optimisation (so what the graph itself says)."""
    import numpy as np
    import onnx
    import onnxruntime as ort

    outputs = model.graph.output
    kept = len(outputs)
    outputs.extend(onnx.helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, None)
                   for name in names)
    try:  # the probe outputs on the model itself: a copy would double the peak memory
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        session = ort.InferenceSession(model.SerializeToString(), options,
                                       providers=["CPUExecutionProvider"])
    finally:
        del outputs[kept:]
    ranges: dict[str, Any] = {}
    for feed in feeds:
        for name, value in zip(names, session.run(names, feed), strict=True):
            top = np.abs(value).reshape(-1, value.shape[-1]).max(0)
            ranges[name] = top if name not in ranges else np.maximum(ranges[name], top)
    return ranges


def norm_outputs(model: Any) -> list[str]:
    """The layer norms' outputs that a product with constant weights reads."""
    init = {i.name for i in model.graph.initializer}
    normed = {n.output[0] for n in model.graph.node if n.op_type == "LayerNormalization"}
    return sorted({n.input[0] for n in model.graph.node if n.input and n.input[0] in normed
                   and n.op_type in ("MatMul", "Attention") and n.input[1] in init})


def smooth(model: Any, ranges: dict[str, Any], alpha: float) -> int:
    """SmoothQuant on the products reading each tensor in ``ranges``: channel ``j`` is
    divided by ``s_j = range_j^alpha / weight_range_j^(1-alpha)`` and the weight row ``j``
    multiplied by it, in place; returns how many tensors were smoothed."""
    import numpy as np
    from onnx import helper, numpy_helper

    graph = model.graph
    init = {i.name: i for i in graph.initializer}
    readers: dict[str, list[Any]] = {}
    for n in graph.node:
        if n.input and n.input[0] in ranges and n.op_type in ("MatMul", "Attention") \
                and n.input[1] in init:
            readers.setdefault(n.input[0], []).append(n)
    muls: dict[str, Any] = {}
    for name, nodes in readers.items():
        weights = [numpy_helper.to_array(init[n.input[1]]) for n in nodes]
        wide = np.max([np.abs(w).max(1) for w in weights], axis=0)
        s = (np.maximum(ranges[name], 1e-5) ** alpha
             / np.maximum(wide, 1e-5) ** (1 - alpha)).astype(np.float32)
        _add_initializer(graph, 1 / s, f"{name}.smooth")
        muls[name] = helper.make_node("Mul", [name, f"{name}.smooth"], [f"{name}.smoothed"],
                                      name=f"{name}.smooth")
        for n, w in zip(nodes, weights, strict=True):
            _add_initializer(graph, (w * s[:, None]).astype(np.float32), f"{n.input[1]}.smoothed")
            n.input[0], n.input[1] = f"{name}.smoothed", f"{n.input[1]}.smoothed"
    nodes = []
    for n in graph.node:
        nodes.append(n)
        nodes.extend(muls[o] for o in n.output if o in muls)
    _keep_nodes(graph, nodes)
    _drop_unused_initializers(graph)
    return len(muls)


def load(path: Path) -> Any:
    import onnx

    return onnx.load(str(path))


def save(model: Any, path: Path) -> None:
    import onnx

    onnx.save(model, str(path))


def _only(nodes: list[Any], op: str) -> Any | None:
    return nodes[0] if len(nodes) == 1 and nodes[0].op_type == op else None


def _next_projection(start: str, users: dict[str, list[Any]], square: set[int]) -> Any | None:
    """The first square projection downstream of ``start`` (the attention's output one)."""
    frontier, seen = [start], set()
    while frontier:
        for n in users.get(frontier.pop(0), []):
            if id(n) in seen:
                continue
            seen.add(id(n))
            if id(n) in square:
                return n
            frontier.extend(n.output)
    return None


def _needed(nodes: list[Any], outputs: list[str]) -> list[Any]:
    """The nodes the outputs depend on, in their given (topological) order."""
    made_by = {o: n for n in nodes for o in n.output}
    keep, todo = set(), list(outputs)
    while todo:
        n = made_by.get(todo.pop())
        if n is not None and id(n) not in keep:
            keep.add(id(n))
            todo.extend(n.input)
    return [n for n in nodes if id(n) in keep]


def _keep_nodes(graph: Any, nodes: list[Any]) -> None:
    kept = list(nodes)
    del graph.node[:]
    graph.node.extend(kept)


def _drop_unused_initializers(graph: Any) -> None:
    """In place: rebuilding the list would copy every weight (the peak memory of a derive)."""
    used = {x for n in graph.node for x in n.input}
    for i in reversed(range(len(graph.initializer))):
        if graph.initializer[i].name not in used:
            del graph.initializer[i]


def _add_initializer(graph: Any, array: Any, name: str) -> None:
    """A float tensor written straight into the graph (one copy of its bytes, not three)."""
    from onnx import TensorProto

    tensor = graph.initializer.add()
    tensor.name = name
    tensor.data_type = TensorProto.FLOAT
    tensor.dims.extend(array.shape)
    tensor.raw_data = array.tobytes()
