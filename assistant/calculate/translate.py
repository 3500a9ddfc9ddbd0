"""Chinese for the English strings the calculators return (assumptions, sources, formulas).

The calculators speak English only, by design; the answer speaks the user's language. Each
row maps an English pattern to a Chinese template (``\\1`` … are the captured values). Strings
with no row are shown as they are: a new calculator sentence is never hidden or garbled, it
just stays English until a row is added here. Bibliographic references keep author, year and
arXiv number; only the words around them are translated.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["to_chinese", "untranslated"]

_Row = tuple[str, str]

#: Whole sentences (anchored at both ends), checked first.
_SENTENCES: tuple[_Row, ...] = (
    (
        r"MFU (\d+%): GeForce cards \(PCIe, no peer-to-peer on RTX 4090\)",
        r"MFU \1：消费级 GeForce 卡（PCIe，RTX 4090 不支持 GPU 直连）",
    ),
    (r"MFU (\d+%): (\S+)-class GPUs with NVLink", r"MFU \1：带 NVLink 的 \2 级 GPU"),
    (
        r"MFU (\d+%): data-centre cards without NVLink \(PCIe only\)",
        r"MFU \1：没有 NVLink 的数据中心卡（仅 PCIe）",
    ),
    (r"MFU (\d+%): V100 with NVLink", r"MFU \1：带 NVLink 的 V100"),
    (
        r"MFU (\d+%): AMD MI300X \(ROCm; few published large runs\)",
        r"MFU \1：AMD MI300X（ROCm，公开的大规模训练很少）",
    ),
    (
        r"MFU (\d+%): Huawei Ascend \(few published figures\)",
        r"MFU \1：华为昇腾（公开数据很少）",
    ),
    (
        r"MFU (\d+%): B200 \(no large published run; Hopper figure assumed\)",
        r"MFU \1：B200（尚无公开的大规模训练，按 Hopper 的数值假设）",
    ),
    (r"MFU (\d+%) of the dense peak for the whole run(.*)", r"全程按稠密峰值的 \1 计 MFU\2"),
    (
        r"LoRA/QLoRA: the frozen base gets no weight gradients, so 2·N·D of the 6·N·D "
        r"backward-and-forward FLOPs are skipped \((.*)\)",
        r"LoRA/QLoRA：冻结的基座不计算权重梯度，6·N·D 的前向加反向 FLOPs 中省去 2·N·D（\1）",
    ),
    (
        r"MoE decode reads only the experts the batch's tokens route to \(uniform routing\)",
        "MoE 解码只读取本批 token 路由到的专家（按均匀路由计）",
    ),
    (
        r"Speed is informative: no latency target is given; n/a when the model does not fit in "
        r"memory\.",
        "速度仅供参考：未给出延迟目标；模型放不下时不适用。",
    ),
    (
        r"a roofline upper bound: kernel launches, all-reduce/all-to-all latency and scheduling "
        r"make real servers slower",
        "屋顶线上限：内核启动、all-reduce/all-to-all 延迟和调度会让实际服务更慢",
    ),
    (
        r"prefill at (\d+%) of the (\w+) peak; decode at (\d+%) of HBM bandwidth "
        r"\(planning assumption\)",
        r"预填充按 \2 峰值的 \1 计，解码按 HBM 带宽的 \3 计（规划假设）",
    ),
    (
        r"recompute=(\w+): 8·N·D with full recompute, else 6·N·D, plus attention-score FLOPs",
        r"重计算=\1：完全重计算为 8·N·D，否则 6·N·D，另加注意力得分的 FLOPs",
    ),
    (
        r"tensor parallel over the GPUs with no communication cost; every sequence at "
        r"context_length tokens",
        "张量并行按无通信开销计；每条序列都按满上下文长度计",
    ),
    (r"tight = within (\d+%) of the deadline", r"“偏紧”= 距期限不到 \1"),
    (r"tokens: given", "token 数：问题给出"),
    (
        r"No price given: gpu-advisor never invents prices\.",
        "未给出价格：gpu-advisor 从不臆造价格。",
    ),
    (
        r"Price as given by the user; energy is not priced separately\.",
        "价格按用户给出的计；电费不单独计价。",
    ),
    (
        r"16-bit activations; sequence parallelism whenever tensor_parallel > 1",
        "激活值按 16 位计；张量并行大于 1 时启用序列并行",
    ),
    (
        r"MoE: all experts resident; embeddings and output layer kept in 16-bit when quantized",
        "MoE：全部专家常驻显存；量化时嵌入层和输出层保持 16 位",
    ),
    (
        r"ZeRO-3/FSDP all-gather/prefetch buffers \(about two layers of 16-bit weights\) are not "
        r"counted: they come out of the unused memory reserve",
        "ZeRO-3/FSDP 的 all-gather/预取缓冲（约两层 16 位权重）未计入：由预留显存承担",
    ),
    (
        r"activation coefficient 34 sbh per layer is the GPT-block figure of Korthikanti et al\.; "
        r"SwiGLU/GQA/MoE layers differ by a few sbh",
        "每层激活系数 34 sbh 取自 Korthikanti 等人的 GPT 块；SwiGLU/GQA/MoE 层相差几个 sbh",
    ),
    (
        r"adapters on every linear layer, rank (\d+): ([\d,]+) trainable",
        r"每个线性层都加适配器，秩 \1：可训练参数 \2 个",
    ),
    (
        r"every sequence is filled to context_length \(worst case for the KV cache\)",
        "每条序列都填满上下文长度（KV cache 的最坏情况）",
    ),
    (
        r"pipeline: 1F1B schedule, the first stage keeps p micro-batches in flight",
        "流水线：1F1B 调度，第一段同时保留 p 个微批",
    ),
    (r"recompute=(\w+), flash_attention=(\w+)", r"重计算=\1，FlashAttention=\2"),
    (r"recompute=(\w+)", r"重计算=\1"),
    (
        r"runtime overhead counted once: activation workspace of a ([\d,]+)-token prefill chunk "
        r"here; CUDA context, CUDA graphs, NCCL buffers and fragmentation in the (\d+%) reserve of "
        r"the usable-memory fraction",
        r"运行时开销只计一次：这里计 \1 token 预填充块的激活工作区；CUDA 上下文、CUDA graph、"
        r"NCCL 缓冲与碎片计入可用显存中 \2 的预留",
    ),
    (
        r"usable memory = (\d+%) of the datasheet capacity \(CUDA context, fragmentation\); "
        r"tight = within (\d+%) of it",
        r"可用显存 = 标称容量的 \1（扣除 CUDA 上下文与碎片）；“偏紧”= 差距不到 \2",
    ),
    (
        r"Compute time uses model FLOPs 6 x N_active per token at the given MFU "
        r"\(PaLM's definition\)\.",
        "计算时间按每 token 6 × N_active 的模型 FLOPs 与给定 MFU 计（PaLM 的定义）。",
    ),
    (
        r"Inference: no gradient traffic; tensor-parallel serving traffic is not modelled here\.",
        "推理：没有梯度通信；这里不计张量并行推理的通信。",
    ),
    (
        r"Inter-node bandwidth is per node \(sum of its NICs, one direction\); each GPU gets "
        r"B_node / gpus_per_node when all talk at once \(one NIC per node unless the link says "
        r"more\)\.",
        "机间带宽按每节点计（各网卡单方向之和）；所有 GPU 同时通信时每卡得到 B_node / 每节点 GPU "
        "数（除非链路另有说明，每节点一块网卡）。",
    ),
    (r"One GPU: no communication\.", "单卡：没有通信。"),
    (
        r"Overlap case: data-parallel gradient sync and pipeline sends overlap with compute "
        r"\(bucketed all-reduce, PyTorch DDP\); tensor-parallel and MoE collectives do not\.",
        "重叠情形：数据并行梯度同步与流水线发送和计算重叠（分桶 all-reduce，PyTorch DDP）；"
        "张量并行与 MoE 集合通信不重叠。",
    ),
    (
        r"Placement as Megatron-LM: tensor parallel innermost \(inside a node\), then pipeline, "
        r"then data parallel; DP groups on one node share its NICs\.",
        "按 Megatron-LM 的放置：张量并行在最内层（节点内），其次流水线，最后数据并行；"
        "同一节点上的数据并行组共用该节点的网卡。",
    ),
    (
        r"Ring collectives at full link bandwidth \(NCCL bus bandwidth = link bandwidth\); real "
        r"busbw is typically (\d+-\d+%) of it\.",
        r"环形集合通信按链路满带宽计（NCCL 总线带宽 = 链路带宽）；实测 busbw 通常为其 \1。",
    ),
    (
        r"Single node: no inter-node traffic; inter-node figures are n/a\.",
        "单机：没有机间通信；机间数字不适用。",
    ),
    (
        r"The (\d+%) target bandwidth is for no overlap: comm <= compute / (\d+)\.",
        r"\1 目标带宽按不重叠计：通信 ≤ 计算 / \2。",
    ),
    (
        r"Verdict: ok when comm <= (\d+%) of compute per step, tight up to (\d+%), fail above "
        r"\(communication-bound\)\.",
        r"判定：每步通信 ≤ 计算的 \1 为通过，\2 以内为偏紧，超过为不通过（受通信限制）。",
    ),
    (
        r"GPUs draw (\d+%) of TDP for the whole run \(TDP is an upper bound; BLOOM's estimate also "
        r"used TDP\)\.",
        r"GPU 全程按 TDP 的 \1 耗电（TDP 是上限；BLOOM 的估算也用 TDP）。",
    ),
    (
        r"Host overhead (\d+) W per GPU \(BLOOM's measured non-GPU share, "
        r"Luccioni et al\. 2022\)\.",
        r"主机开销每卡 \1 W（BLOOM 实测的非 GPU 部分，Luccioni 等 2022）。",
    ),
    (
        r"PUE ([\d.]+) \(Uptime Institute 2023 average ([\d.]+) unless the site gives its own\)\.",
        r"PUE \1（未给出站点数值时取 Uptime Institute 2023 年平均 \2）。",
    ),
    (r"Deadline ([\d.]+) days\.", r"期限 \1 天。"),
    (
        r"0\.40 is a planning default below the best tuned runs",
        "0.40 是低于最佳调优训练的规划默认值",
    ),
    (
        r"Planning assumption: consumer cards over PCIe without NVLink or P2P",
        "规划假设：消费级显卡走 PCIe，没有 NVLink 或 P2P",
    ),
)

#: Phrases replaced inside any remaining string (references, formulas), longest first.
_PHRASES: tuple[_Row, ...] = (
    (r"\bprice per GPU-hour\b", "每卡时价格"),
    (r"\bGPU-hours\b", "GPU 小时数"),
    (r"\bcost = ", "费用 = "),
    (r"\bet al\.", "等"),
    (r"\bTable\b", "表"),
    (r"\bAppendix\b", "附录"),
    (r"\bon the most-loaded stage\b", "（取负载最重的流水线段）"),
    (r"\(8 with full recompute\)", "（完全重计算时为 8）"),
    (r"\(6 with full recompute\)", "（完全重计算时为 6）"),
    (r"\bwith full recompute\b", "完全重计算时"),
    (r"\bper GPU\b", "每卡"),
    (r"\bper token\b", "每 token"),
    (r"\bper step\b", "每步"),
    (r"\bper layer\b", "每层"),
    (r"\bper micro-batch\b", "每微批"),
    (r"\b(\d+) tokens per parameter\b", r"每参数 \1 个 token"),
    (r"\bbytes per parameter\b|\bbytes/param\b", "字节/参数"),
    (r"\bper parameter\b", "每参数"),
    (r"\bon linear layers\b", "（线性层）"),
    (r"\bon the rest\b", "（其余）"),
    (r"\bfrozen base\b", "冻结基座"),
    (r"\bactivations\b", "激活值"),
    (r"\battention\b", "注意力"),
    (r"\bweights\b", "权重"),
    (r"\bbytes\b", "字节"),
    (r"\bwith\b", "，其中"),
)


@lru_cache(maxsize=4096)  # answers repeat the same few hundred strings; ~100 regexes each
def to_chinese(text: str) -> str:
    """The Chinese for a calculator string: a whole-sentence row, else phrase by phrase.

    Examples:
        >>> to_chinese("tokens: given")
        'token 数：问题给出'
        >>> to_chinese("MFU 40%: A100-class GPUs with NVLink")
        'MFU 40%：带 NVLink 的 A100 级 GPU'
    """
    for pattern, template in _SENTENCES:
        match = re.fullmatch(pattern, text)
        if match:
            return match.expand(template)
    for pattern, template in _PHRASES:
        text = re.sub(pattern, template, text)
    return text


def untranslated(text: str) -> bool:
    """True when no whole-sentence row matches (the string keeps most of its English)."""
    return not any(re.fullmatch(pattern, text) for pattern, _ in _SENTENCES)
