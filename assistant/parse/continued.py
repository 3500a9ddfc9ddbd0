"""Full-parameter training of a corpus the size of a pre-training run is continued
pre-training, not a fine-tune ("全参训练Qwen2.5-32B 500B token", "full-parameter training of
Qwen2.5-7B on 300B tokens").

The rule: a stated full-parameter method ("全参", "full-parameter") with no fine-tuning word
("微调", "fine-tune", "SFT", …) is pre-training when the question names continued pre-training
("继续预训练", "增量预训练", "continued pretraining") or states at least
:data:`CONTINUED_PRETRAIN_TOKENS` tokens. "全参微调" / "full fine-tune" stays fine-tuning at any
token count: the user said so.

Examples:
    >>> found = {"method": "full", "task": "finetune", "tokens": 5e11}
    >>> continued_pretraining("全参训练 ⟨model⟩ 500b token 要多久", found)
    True
    >>> found["task"], "method" in found
    ('pretrain', False)
    >>> continued_pretraining("全参微调 ⟨model⟩ 500b token", {"method": "full", "tokens": 5e11})
    False
    >>> continued_pretraining("全参数预训练 ⟨model⟩ 需要多少卡", {"method": "full"})
    True
"""

from __future__ import annotations

import re

from assistant.parse import slots

__all__ = ["CONTINUED_PRETRAIN_TOKENS", "continued_pretraining"]

#: From this many training tokens a full-parameter run is (continued) pre-training. Fine-tuning
#: sets are millions of samples at most, well under 10B tokens (Llama 2-Chat: 27,540 SFT
#: annotations, Touvron et al. 2023, arXiv:2307.09288 §3.1; DeepSeek-V3: 1.5M SFT instances,
#: arXiv:2412.19437 §5.1); continued pre-training runs are tens to hundreds of billions (Code
#: Llama: 500B tokens on Llama 2, Rozière et al. 2023, arXiv:2308.12950; Llemma: 50-200B tokens
#: on Code Llama, Azerbayev et al. 2023, arXiv:2310.10631). 10B sits between the two.
CONTINUED_PRETRAIN_TOKENS = 10e9

#: The words that name continued pre-training, whatever the token count.
_CONTINUED = re.compile(
    r"继续预训练|增量预训练|二次预训练|持续预训练|"
    r"(?:continued|continual|further|incremental)\s+pre-?training|\bcpt\b",
    re.ASCII,
)

#: Pre-training said in words ("全参数预训练", "full-parameter pretraining"), not "训练" alone.
_PRETRAIN = re.compile(r"预训练|\bpre-?train", re.ASCII)


def continued_pretraining(text: str, found: dict[str, object]) -> bool:
    """Read a stated full-parameter run as pre-training when the rule above says so: sets
    `found["task"]` to "pretrain" and drops the method (pre-training trains every parameter);
    True when it did. `text` is the masked, normalised question; `found` the slots so far."""
    if found.get("method") != "full" or slots.read_task(text) not in (None, "pretrain"):
        return False
    tokens = found.get("tokens")
    big = isinstance(tokens, float) and tokens >= CONTINUED_PRETRAIN_TOKENS
    # "全参数预训练Llama-3-8B": pre-training said in words, whatever the token count
    if not (big or _PRETRAIN.search(text) or _CONTINUED.search(text)):
        return False
    found["task"] = "pretrain"
    del found["method"]
    return True
