"""The pre-training default batch on a very large cluster: grown so no node idles for data."""

from __future__ import annotations

from assistant.records import Scenario
from calculators.defaults import DEFAULT_GPUS_PER_NODE

__all__ = ["DATA_PARALLEL_SEQUENCES", "data_parallel_batch"]

#: Sequences each data-parallel group (one node's tensor-parallel split) gets at least from a
#: default batch grown with the cluster: one, so no GPU of the cluster idles for want of data.
DATA_PARALLEL_SEQUENCES = 1


def data_parallel_batch(s: Scenario, default: int) -> int | None:
    """The pre-training batch in sequences when the default (2**22 tokens, 1,024 sequences of
    4,096) is too small for every data-parallel group of the GPUs to get a sequence: one per
    node's worth of GPUs (the widest tensor-parallel split the layouts use inside a node). A
    fixed 4M tokens on 1M H100s left 124,000 of 125,000 nodes with no data and said 229.5
    years at 0.6% scaling efficiency. Large runs grow the batch with the cluster: GPT-3 175B
    used 3.2M tokens (Brown et al. 2020, Table 2.1), Llama 3 405B 16M on 16K H100s
    (arXiv:2407.21783 §3.4.1), DeepSeek-V3 15,360 × 4K = 63M (arXiv:2412.19437 §4.2); the
    largest useful batch (the critical batch, McCandlish et al. 2018, arXiv:1812.06162 §2)
    grows as training goes on. None: the default is enough (up to 8,192 GPUs at 8 per node),
    or a batch was stated (this is only called for an unstated one).

    Examples:
        >>> from assistant.records import Scenario
        >>> data_parallel_batch(Scenario(gpu_count=1_000_000), 1024)
        125000
        >>> data_parallel_batch(Scenario(gpu_count=1024), 1024) is None
        True
    """
    per_node = s.gpus_per_node or DEFAULT_GPUS_PER_NODE
    sequences = DATA_PARALLEL_SEQUENCES * ((s.gpu_count or 0) // per_node)
    return sequences if sequences > default else None
