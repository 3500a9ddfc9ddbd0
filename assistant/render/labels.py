"""Labels of `gpu-advisor calc` output in English and Chinese (figure names, verdicts, units).

Figure keys stay the SI names of the JSON output; people see these labels instead. Calculator
sources are quoted as written (English): they cite papers by their titles.
"""

from __future__ import annotations

#: figure key -> (English label, Chinese label)
FIGURE_LABELS: dict[str, tuple[str, str]] = {
    "required_bytes_per_gpu": ("needed per GPU", "每卡所需显存"),
    "available_bytes_per_gpu": ("usable per GPU (90%)", "每卡可用显存（90%）"),
    "memory_bytes": ("GPU memory (datasheet)", "显存容量（规格）"),
    "min_gpus": ("fewest GPUs that fit", "能装下的最少卡数"),
    "weights_bytes": ("weights", "权重"),
    "gradients_bytes": ("gradients", "梯度"),
    "optimizer_bytes": ("optimizer states", "优化器状态"),
    "activations_bytes": ("activations", "激活"),
    "kv_cache_bytes": ("KV cache (all sequences)", "KV 缓存（全部序列）"),
    "kv_cache_bytes_per_gpu": ("KV cache per GPU", "每卡 KV 缓存"),
    "overhead_bytes": ("runtime workspace", "运行时工作区"),
    "offloaded_bytes": ("offloaded to host memory", "卸载到主机内存"),
    "data_parallel": ("data-parallel degree", "数据并行度"),
    "expert_parallel": ("expert-parallel degree (MoE)", "专家并行度（MoE）"),
    "model_state_bytes_per_gpu": ("model states per GPU", "每卡模型状态"),
    "total_flops": ("total compute", "总计算量"),
    "tokens": ("training tokens", "训练 token 数"),
    "model_flops": ("model FLOPs (6·N·D + attention)", "模型计算量（6·N·D + 注意力）"),
    "hardware_flops": ("hardware FLOPs (with recompute)", "硬件计算量（含重计算）"),
    "mfu": ("MFU (model FLOPs utilisation)", "MFU（模型算力利用率）"),
    "hfu": ("HFU (hardware FLOPs utilisation)", "HFU（硬件算力利用率）"),
    "compute_seconds": ("compute time (no bubble, no exposed comms)", "纯计算时间（无气泡与通信）"),
    "pipeline_microbatches": ("micro-batches per pipeline step", "每个流水线步的微批数"),
    "pipeline_bubble": ("pipeline bubble (1F1B)", "流水线气泡（1F1B）"),
    "network_efficiency": ("efficiency left by exposed comms", "未被掩盖的通信后剩余效率"),
    "peak_flops_per_s": ("dense peak per GPU", "单卡稠密峰值"),
    "seconds": ("time", "时间"),
    "days": ("days", "天数"),
    "gpu_hours": ("GPU-hours", "GPU 时"),
    "gpus_for_deadline": ("GPUs to meet the deadline", "按期完成所需卡数"),
    "deadline_seconds": ("deadline", "期限"),
    "prefill_tokens_per_s": ("prefill speed", "预填充速度"),
    "decode_tokens_per_s": ("decode speed (one replica)", "生成速度（单副本）"),
    "seconds_per_token": ("time per output token", "每个输出 token 耗时"),
    "prefill_seconds": ("prefill of the whole batch", "整批预填充耗时"),
    "decode_bound": ("decode limited by", "生成瓶颈"),
    "first_token_seconds": ("time to first token (one request)", "首 token 延迟（单个请求）"),
    "roofline_seconds_per_token": ("HBM roofline per token", "显存带宽上限（每 token）"),
    "hbm_seconds_per_token": ("weight and KV reads per token", "每 token 权重与 KV 读取"),
    "allreduce_seconds_per_token": ("TP all-reduces per token", "每 token 张量并行 all-reduce"),
    "overhead_seconds_per_token": ("kernel overhead per token", "每 token 内核开销"),
    "tp_allreduce_seconds_per_token": ("TP all-reduces per token", "每 token 张量并行 all-reduce"),
    "pipeline_seconds_per_token": ("pipeline hops per token", "每 token 流水线传递"),
    "comm_seconds_per_token": ("communication per token", "每 token 通信"),
    "comm_share_of_token_time": ("communication share of a token", "通信占每 token 时间"),
    "allreduce_bytes_per_token": (
        "all-reduce bytes per GPU per token",
        "每卡每 token all-reduce 字节",
    ),
    "inter_node_bytes_per_token": ("inter-node bytes per token", "每 token 跨节点流量"),
    "nodes_per_replica": ("nodes per replica", "每副本节点数"),
    "pipeline_parallel": ("pipeline parallel", "流水线并行"),
    "energy_cost": ("energy cost", "电费"),
    "price_per_kwh": ("price per kWh", "每千瓦时电价"),
    "replicas": ("replicas", "副本数"),
    "decode_tokens_per_s_all_replicas": ("decode speed (all replicas)", "生成速度（全部副本）"),
    "concurrent_sequences": ("concurrent sequences (whole deployment)", "并发序列数（整个部署）"),
    "batch_per_replica": ("sequences per replica", "每副本序列数"),
    "busy_replicas": ("replicas with sequences", "有请求的副本数"),
    "allreduce_seconds_per_step": ("data-parallel all-reduce per step", "每步数据并行 all-reduce"),
    "tp_seconds_per_step": ("tensor-parallel traffic per step", "每步张量并行通信"),
    "pp_seconds_per_step": ("pipeline traffic per step", "每步流水线通信"),
    "moe_seconds_per_step": ("MoE all-to-all per step", "每步 MoE all-to-all"),
    "comm_seconds_per_step": ("communication per step", "每步通信"),
    "compute_seconds_per_step": ("compute per step", "每步计算"),
    "comm_compute_ratio": ("communication / compute", "通信 / 计算"),
    "scaling_efficiency": ("scaling efficiency (no overlap)", "扩展效率（不重叠）"),
    "scaling_efficiency_overlap": ("scaling efficiency (with overlap)", "扩展效率（重叠）"),
    "inter_node_bytes_per_second": ("inter-node bandwidth per node", "每节点跨节点带宽"),
    "inter_node_bytes_per_step": ("inter-node traffic per step", "每步跨节点流量"),
    "required_inter_node_bytes_per_second_for_90pct": (
        "inter-node bandwidth for 90% efficiency",
        "达到 90% 效率所需跨节点带宽",
    ),
    "nodes": ("nodes", "节点数"),
    "gpus": ("GPUs", "GPU 数量"),
    "host_ram_needed_bytes_per_node": ("host RAM needed per node", "每节点所需主机内存"),
    "host_ram_bytes_per_node": ("host RAM per node", "每节点主机内存"),
    "cpu_optimizer_seconds_per_step": ("CPU optimizer step", "CPU 优化器步耗时"),
    "steps": ("optimizer steps", "优化步数"),
    "energy_joules": ("energy", "能耗"),
    "kwh": ("energy (kWh)", "电量（千瓦时）"),
    "average_power_watts": ("average power", "平均功率"),
    "gpu_energy_joules": ("GPU energy", "GPU 能耗"),
    "host_energy_joules": ("host energy", "主机能耗"),
    "facility_overhead_joules": ("facility overhead (PUE)", "机房额外能耗（PUE）"),
    "period": ("period", "时段"),
    "power_watts": ("power draw (facility)", "用电功率（含机房）"),
    "it_power_watts": ("IT power (GPUs + hosts)", "IT 功率（GPU + 主机）"),
    "gpu_power_watts": ("GPU power (TDP)", "GPU 功率（TDP）"),
    "kwh_per_hour": ("energy per hour", "每小时电量"),
    "joules_per_token": ("energy per output token", "每输出 token 能耗"),
    "kwh_per_million_tokens": ("energy per million output tokens", "每百万输出 token 电量"),
    "tokens_per_s": ("output tokens per second (deployment)", "每秒输出 token（整个部署）"),
    "cost": ("cost", "费用"),
    "currency": ("currency", "币种"),
    # What limits a check (CheckResult.limiting).
    "deadline": ("deadline", "期限"),
    "data_parallel_allreduce": ("data-parallel all-reduce", "数据并行 all-reduce"),
    "tensor_parallel": ("tensor-parallel traffic", "张量并行通信"),
    "pipeline_p2p": ("pipeline traffic", "流水线通信"),
    "moe_all_to_all": ("MoE all-to-all", "MoE all-to-all"),
}

CHECK_TITLES = {
    "memory": ("memory", "显存"),
    "compute": ("compute", "计算"),
    "network": ("network", "网络"),
    "power": ("power", "能耗"),
    "cost": ("cost", "费用"),
}
VERDICTS = {
    "ok": "通过",
    "tight": "偏紧",
    "fail": "不满足",
    "n/a": "不适用",
    "feasible": "可行",
    "conditional": "有条件可行",
    "infeasible": "不可行",
}
TASKS = {
    "pretrain": ("pretrain", "预训练"),
    "finetune": ("fine-tune", "微调"),
    "inference": ("inference", "推理"),
}
#: Line prefixes and headings.
WORDS = {
    "figure": "指标",
    "value": "数值",
    "limiting": "限制因素",
    "flags": "标记",
    "formula": "公式",
    "inputs": "输入",
    "assumption": "假设",
    "source": "来源",
    "binding": "瓶颈",
    "what would it take": "怎样才能做到",
    "works": "可行",
    "still fails": "仍不满足",
    "note": "说明",
    "n/a (single node)": "不适用（单节点）",
    "yes": "是",
    "no": "否",
}
#: Text values of figures.
VALUES = {
    "memory": "显存带宽",
    "compute": "算力",
    "whole run": "整个训练",
    "one hour of serving": "一小时推理服务",
}


def word(text: str, language: str) -> str:
    """A heading or prefix in ``language`` (English is the key itself)."""
    return WORDS.get(text, text) if language == "zh" else text


def figure_label(key: str, language: str) -> str:
    """The label people see for a figure key (the key itself if unknown)."""
    labels = FIGURE_LABELS.get(key)
    if labels is None:
        return key
    return labels[1] if language == "zh" else labels[0]


def value_text(value: str, language: str) -> str:
    """A text figure ("memory", "whole run") in ``language``; other text is shown as it is.

    Examples:
        >>> value_text("whole run", "zh"), value_text("whole run", "en"), value_text("H100", "zh")
        ('整个训练', 'whole run', 'H100')
    """
    return VALUES.get(value, value) if language == "zh" else value


#: Titles and column headings of the catalog listings.
CATALOG_ZH = {
    "GPU catalog": "GPU 目录",
    "Model catalog": "模型目录",
    "Interconnects": "互连目录",
    "memory": "显存",
    "HBM bandwidth": "显存带宽",
    "BF16/FP16 dense": "BF16/FP16 稠密算力",
    "FP8 dense": "FP8 稠密算力",
    "intra-node link": "节点内互连",
    "model": "模型",
    "params": "参数量",
    "active": "激活参数",
    "layers": "层数",
    "hidden": "隐藏维度",
    "heads/KV heads": "注意力头/KV 头",
    "link": "互连",
    "kind": "类型",
    "per direction": "单向带宽",
    "latency": "延迟",
    "field": "字段",
    "value": "数值",
}


def catalog_word(text: str, language: str) -> str:
    """A catalog title or column heading in ``language``."""
    return CATALOG_ZH.get(text, text) if language == "zh" else text
