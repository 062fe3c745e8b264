"""A stand-in for the few parts of PyTorch that web/explorer/export.js's "copy as PyTorch" script uses,
in plain Python, so tests/embed-export.test.mjs can run the script without PyTorch installed,
as each version would: FAKE_TORCH=1.13 has no scaled_dot_product_attention (it came with 2.0),
2.0 has it without the scale= argument (that came with 2.1), 2.1 has both. Tensors are 1-D or
2-D lists of floats; every operation the script uses, and nothing else, is here."""
import math
import os
import types

__version__ = os.environ.get('FAKE_TORCH', '2.1')
bool = 'bool'
_inf = float('inf')


def _shape(data):
    return (len(data), len(data[0])) if data and isinstance(data[0], list) else (len(data),)


class Tensor:
    def __init__(self, data):
        self.data = [list(map(float, r)) for r in data] if data and isinstance(data[0], list) else list(map(float, data))
        self.shape = _shape(self.data)

    def tolist(self):
        return [list(r) for r in self.data] if len(self.shape) == 2 else list(self.data)

    def _map(self, f):
        return Tensor([[f(v) for v in r] for r in self.data] if len(self.shape) == 2 else [f(v) for v in self.data])

    def _zip(self, other, f):
        if not isinstance(other, Tensor):
            return self._map(lambda v: f(v, other))
        o = other.data
        if len(self.shape) == 2 and other.shape[1] == 1:  # a column broadcast along each row
            return Tensor([[f(v, o[i][0]) for v in r] for i, r in enumerate(self.data)])
        return Tensor([[f(a, b) for a, b in zip(r, q)] for r, q in zip(self.data, o)])

    def __matmul__(self, other):
        b = other.data
        return Tensor([[sum(a * b[k][j] for k, a in enumerate(r)) for j in range(other.shape[1])] for r in self.data])

    def __mul__(self, other): return self._zip(other, lambda a, b: a * b)
    __rmul__ = __mul__
    def __truediv__(self, other): return self._zip(other, lambda a, b: a / b)
    def __sub__(self, other): return self._zip(other, lambda a, b: a - b if not (a == b == -_inf) else -_inf)

    @property
    def T(self):
        return Tensor([list(c) for c in zip(*self.data)])

    def masked_fill(self, mask, value):
        return Tensor([[value if m else v for v, m in zip(r, q)] for r, q in zip(self.data, mask.data)])

    def triu(self, diagonal=0):
        return Tensor([[v if j - i >= diagonal else 0.0 for j, v in enumerate(r)] for i, r in enumerate(self.data)])

    def clone(self):
        return Tensor(self.tolist())

    def _rows(self, f, keepdim):
        out = [f(r) for r in self.data]
        return Tensor([[v] for v in out]) if keepdim else Tensor(out)

    def sum(self, dim=-1, keepdim=False):
        return self._rows(sum, keepdim)

    def max(self, dim=-1, keepdim=False):
        return types.SimpleNamespace(values=self._rows(max, keepdim))


def tensor(data):
    return Tensor(data)


def ones(n, m, dtype=None):
    return Tensor([[1.0] * m for _ in range(n)])


def exp(t):
    return t._map(lambda v: 0.0 if v == -_inf else math.exp(v))


def softmax(t, dim=-1):
    def row(r):
        top = max(r)
        e = [0.0 if v == -_inf else math.exp(v - top) for v in r]
        s = sum(e)
        return [v / s for v in e]
    return Tensor([row(r) for r in t.data])


def allclose(a, b, atol=1e-8, rtol=1e-5):
    return all(abs(x - y) <= atol + rtol * abs(y) for r, q in zip(a.data, b.data) for x, y in zip(r, q))


def _sdpa(Q, K, V, attn_mask=None, dropout_p=0.0, is_causal=False, **kw):
    if 'scale' in kw and __version__ < '2.1':
        raise TypeError("scaled_dot_product_attention() got an unexpected keyword argument 'scale'")
    scale = kw.get('scale') or 1 / math.sqrt(Q.shape[1])
    S = (Q @ K.T) * scale
    if is_causal:
        S = S.masked_fill(ones(*S.shape).triu(1), -_inf)
    return softmax(S) @ V


nn = types.SimpleNamespace(functional=types.SimpleNamespace())
if __version__ >= '2.0':
    nn.functional.scaled_dot_product_attention = _sdpa
