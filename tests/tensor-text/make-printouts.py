"""Writes the printouts tests/tensor-text.test.mjs reads: what print() and the REPL show for
torch tensors and NumPy arrays, with the exact values behind each (from .tolist()) in
expected.json. Not run by the tests (it needs torch and numpy); run it again only to add a case:

    python3 tests/tensor-text/make-printouts.py

Made with Debian's python3-torch (1.13.1) and python3-numpy (1.24.2). The print format of
torch tensors is the same in 2.x (torch/_tensor_str.py); NumPy's has not changed since 1.14."""
import io, json, os, sys
from contextlib import redirect_stdout

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
cases = {}


def shown(*things):
    """What print(*things) writes."""
    buf = io.StringIO()
    with redirect_stdout(buf):
        print(*things)
    return buf.getvalue()


def case(name, text, **values):
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write(text)
    cases[name] = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in values.items()}


torch.manual_seed(0)
np.random.seed(0)

# The lesson's PyTorch lab: Q, K = Q.clone(), V, printed one by one with their names.
Q = torch.tensor([[1., 0.], [0., 1.], [1., 1.]])
K = Q.clone()
V = torch.tensor([[1., 0.], [0., 2.], [3., 1.]])
def attention(Q, K, V, causal=False):
    """softmax(Q·Kᵀ/√dk + mask)·V, as torch computes it (what the explorer must show)."""
    S = Q @ K.T / K.shape[-1] ** 0.5
    if causal:
        S = S.masked_fill(torch.ones(S.shape, dtype=torch.bool).triu(1), float("-inf"))
    A = torch.softmax(S, dim=-1)
    return A, A.to(V.dtype) @ V


A, O = attention(Q, K, V)
case("lesson-named", shown("Q =", Q) + shown("K =", K) + shown("V =", V), Q=Q, K=K, V=V, A=A, O=O)
# The same three printed without names, in order.
case("lesson-unnamed", shown(Q) + shown(K) + shown(V), Q=Q, K=K, V=V)
# The same as a REPL shows them (the echo of ">>> Q").
case("lesson-repl", "".join(f">>> {n}\n{t!r}\n" for n, t in (("Q", Q), ("K", K), ("V", V))), Q=Q, K=K, V=V)

# X and the three projections, leaves that require grad; float64 for Wv.
X = torch.randn(5, 4)
Wq = torch.randn(4, 3, requires_grad=True)
Wk = torch.randn(4, 3, requires_grad=True)
Wv = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
with torch.no_grad():
    A, O = attention(X @ Wq, X @ Wk, X.double() @ Wv, causal=True)
case("projection-requires-grad", shown("X =", X) + shown("Wq =", Wq) + shown("Wk =", Wk) + shown("Wv =", Wv) + "is_causal=True\n",
     X=X, Wq=Wq.detach(), Wk=Wk.detach(), Wv=Wv.detach(), A=A, O=O)

# Q, K and V computed from them: grad_fn tails.
Qg, Kg, Vg = X @ Wq, X @ Wk, (X.double() @ Wv) * 2
case("grad-fn", shown("Q =", Qg) + shown("K =", Kg) + shown("V =", Vg), Q=Qg.detach(), K=Kg.detach(), V=Vg.detach())

# Wide rows wrap over several lines; scientific notation when the values span many decades;
# negative zeros.
Wide = torch.randn(3, 12)
Sci = torch.tensor([[1.0, 1e-5, -2.5e6], [3e-8, 0.0, 1.0], [-1.0, 2.0, 4e4]])
NegZero = torch.tensor([[-0.0, 1.0], [0.5, -0.0], [-0.25, 0.0]])
case("wide-sci-negzero", shown("Q =", Wide) + shown("K =", Wide.clone() * -1) + shown("V =", NegZero),
     Q=Wide, K=Wide * -1, V=NegZero)
case("scientific", shown("Q =", Sci) + shown("K =", Sci.T.contiguous()) + shown("V =", Sci[:, :2]),
     Q=Sci, K=Sci.T, V=Sci[:, :2])

# A weight from torch.nn.Linear: "Parameter containing:", and [out][in], the transpose of Wq.
lin = torch.nn.Linear(4, 3, bias=False)
case("linear-weight", shown(X) + shown(lin.weight) + shown(lin.weight) + shown(lin.weight), X=X, W=lin.weight.detach())
case("linear-weight-t", shown(X) + shown(lin.weight.T) + shown(lin.weight.T) + shown(lin.weight.T), X=X, W=lin.weight.T.detach())

# A batch of one, [1, n, d]; integer tensors; float16.
case("batch-int-half", shown("Q =", torch.randn(1, 3, 2)) + shown("K =", torch.tensor([[1, 0], [0, 1], [2, -3]])) +
     shown("V =", torch.tensor([[0.5, -1.25], [3.0, 0.125], [1.0, 2.0]], dtype=torch.float16)))
cases["batch-int-half"] = None  # values checked in the test from the printout itself

# Refused: -inf (a mask's), a shortened printout, a boolean tensor, one dimension, a batch of 2.
case("minus-inf", shown("Q =", Q) + shown("K =", torch.tensor([[0., float("-inf")], [1., 1.], [0., 0.]])) + shown("V =", V))
case("shortened", shown("Q =", torch.randn(40, 30)) + shown("K =", K) + shown("V =", V))
case("bool", shown("Q =", Q) + shown("K =", K) + shown("V =", torch.tensor([[True, False], [False, True], [True, True]])))
case("vector", shown("Q =", torch.tensor([1., 0.])) + shown("K =", K) + shown("V =", V))
case("batch-of-two", shown("Q =", torch.randn(2, 3, 2)) + shown("K =", K) + shown("V =", V))

# NumPy: repr (array(..., dtype=float32)), print() without commas, float64 repr, scientific.
A32 = np.array([[1., 0.], [0., 1.], [1., 1.]], dtype=np.float32)
V64 = np.array([[1., 0.], [0., 2.], [3., 1.]])
case("numpy-repr", f"Q = {A32!r}\nK = {A32.copy()!r}\nV = {V64!r}\n", Q=A32, K=A32, V=V64)
Xn = np.random.randn(4, 6).astype(np.float32)
Wn = np.random.randn(6, 3)
case("numpy-print", shown(Xn) + shown(Wn) + shown(Wn * 2) + shown(Wn[:, :2] * 1e-6), X=Xn, Wq=Wn, Wk=Wn * 2, Wv=Wn[:, :2] * 1e-6)

# Plain nested lists, as .tolist() prints them.
case("lists", shown("Q =", Q.tolist()) + shown("K =", K.tolist()) + shown("V =", V.tolist()), Q=Q, K=K, V=V)

with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(cases, f, indent=1)
    f.write("\n")
print("wrote", len(cases), "printouts to", HERE)
