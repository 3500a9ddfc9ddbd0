"""Planning defaults: the one home of every value used when a question leaves it open.

The planner (`calculators.planner`), the solvers (`calculators.sizing`), the `calc` command
options and the answer pipeline (`assistant.calculate.defaults`, which also says each one in
the answer) all read these; none of them writes its own copy.
"""

from __future__ import annotations

__all__ = [
    "CHINCHILLA_TOKENS_PER_PARAM",
    "DAY",
    "DEFAULT_CONTEXT_TOKENS",
    "DEFAULT_DEADLINE_SECONDS",
    "DEFAULT_GPUS_PER_NODE",
    "DEFAULT_INTER_LINK",
    "DEFAULT_OUTPUT_TOKENS",
    "DEFAULT_PROMPT_TOKENS",
    "FINETUNE_BATCH_SEQUENCES",
    "FINETUNE_TOKENS",
    "MIN_SERVING_SEQUENCES",
    "PRETRAIN_BATCH_TOKENS",
]

DAY = 86_400.0
"""Seconds in a day."""
DEFAULT_DEADLINE_SECONDS = 90 * DAY
"""Deadline when the question gives none: 90 days (a quarter)."""
PRACTICAL_SECONDS = 365 * DAY
"""Past a year a run is a research programme, not a schedule: it is called impractical."""
DEFAULT_CONTEXT_TOKENS = 4096
"""Sequence length / serving context when none is given: 4,096 tokens (Llama 2's context,
arXiv:2307.09288 §2.2); a model with a shorter context uses its own."""
CHINCHILLA_TOKENS_PER_PARAM = 20.0
"""Compute-optimal pre-training tokens per parameter (Hoffmann et al. 2022, arXiv:2203.15556
§3, Table 3: 70B parameters on 1.4T tokens)."""
FINETUNE_TOKENS = 1e8
"""Fine-tuning token budget when none is given: about 50k instructions × 2k tokens (Llama 2's
SFT set was 27,540 dialogues, arXiv:2307.09288 §3.1). A planning default, said in the answer."""
PRETRAIN_BATCH_TOKENS = 4_194_304.0
"""Pre-training global batch: 4M tokens, i.e. 2**22 = 1,024 sequences of 4,096 tokens (Llama 2,
arXiv:2307.09288 §2.2; GPT-3 175B used 3.2M), so the default batch is a whole power-of-two
number of sequences at the usual context lengths rather than 977."""
FINETUNE_BATCH_SEQUENCES = 64
"""Fine-tuning global batch in sequences: 64 (Llama 2 SFT, arXiv:2307.09288 §3.1)."""
DEFAULT_INTER_LINK = "InfiniBand NDR"
"""Inter-node link when a multi-node layout names none and no card is known to pick its own
(`calculators.planner.fabrics.typical_fabric`: RoCE for Ascend, HDR for A100/A800, NDR for
Hopper, Ethernet for GeForce): one 400 Gb/s InfiniBand NDR port per GPU, as in DGX/HGX H100
clusters (NVIDIA DGX H100 user guide). Serving across nodes picks the typical fabric too."""
DEFAULT_GPUS_PER_NODE = 8
"""GPUs per server when the question names none: 8, as in DGX/HGX A100 and H100 systems and
most 8-GPU PCIe servers (NVIDIA DGX H100 user guide)."""
DEFAULT_PROMPT_TOKENS = 1024
"""Prompt length of a serving request when none is given (capped at the context): 1,024 tokens."""
DEFAULT_OUTPUT_TOKENS = 256
"""Generated tokens per serving request when none is given (capped at the context): 256."""
MIN_SERVING_SEQUENCES = 8
"""Concurrent sequences below which a deployment that fits is said to hold only a few users
(this tool's threshold, said in the answer, never a verdict): continuous batching (Orca, Yu et
al. OSDI 2022; vLLM) earns its throughput by decoding many sequences per weight read, and a
replica whose KV cache holds fewer than 8 full-context sequences runs the model for a
handful of users at a time, not as a shared service."""
