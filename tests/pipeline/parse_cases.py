"""Question → expected slots for issue 10 (facts, asks, names), written before running the parser.

`TUNE` rows were used while developing; `HELD_OUT` rows were written at the same time and never
used to adjust the parser (report both pass counts). Each row: (question, expected), where
expected maps Scenario fields, plus "asks" (the first ask, or a tuple prefix), "unknown" (names
that must be listed) and "options" (the GPU of each compared option).
"""

from __future__ import annotations

DAY = 86400.0

Row = tuple[str, dict[str, object]]

TUNE: list[Row] = [
    # -- hardware counts and nodes
    (
        "4 nodes of 8x H100 train a 70B model",
        {"gpu": "H100 SXM 80GB", "nodes": 4, "gpus_per_node": 8, "gpu_count": 32},
    ),
    (
        "2 nodes of 8x H800, pretrain 13B",
        {"gpu": "H800 SXM 80GB", "nodes": 2, "gpus_per_node": 8, "gpu_count": 16},
    ),
    (
        "two servers with 8x A100 each, fine-tune 70B",
        {"gpu": "A100 SXM 80GB", "nodes": 2, "gpus_per_node": 8, "gpu_count": 16},
    ),
    (
        "4x8 H100 train 70B",
        {"gpu": "H100 SXM 80GB", "nodes": 4, "gpus_per_node": 8, "gpu_count": 32},
    ),
    ("8xH100 serve Llama-2-70B", {"gpu": "H100 SXM 80GB", "gpu_count": 8, "model": "Llama-2-70B"}),
    (
        "2×8卡 A800 训练70B",
        {"gpu": "A800 SXM 80GB", "nodes": 2, "gpus_per_node": 8, "gpu_count": 16},
    ),
    (
        "两台每台8张H100训练千亿模型",
        {"nodes": 2, "gpus_per_node": 8, "gpu_count": 16, "params": 1e11},
    ),
    ("H200 x8 推理 70B", {"gpu": "H200 SXM 141GB", "gpu_count": 8, "task": "inference"}),
    # -- links
    ("16 H100 on 2 nodes over 25GbE, train 13B", {"inter_link": "25GbE TCP", "nodes": 2}),
    ("2 nodes of 8 A100 connected by 10GbE", {"inter_link": "10GbE TCP", "gpu_count": 16}),
    ("两台8卡A100，万兆网络，训练7B", {"inter_link": "10GbE TCP", "gpu_count": 16}),
    ("4台8卡A800用25G以太网互联训练70B", {"inter_link": "25GbE TCP", "nodes": 4}),
    ("4 nodes with 100G RoCE, 8 H800 each", {"inter_link": "100GbE RoCE", "gpu_count": 32}),
    ("8 nodes of 8 H100 over 200Gb IB", {"inter_link": "InfiniBand HDR", "gpu_count": 64}),
    ("8 H100 PCIe-only, fine-tune 13B", {"gpu": "H100 PCIe 80GB", "intra_link": "PCIe Gen5 x16"}),
    ("8 A100 without NVLink serve 70B", {"gpu": "A100 PCIe 80GB", "intra_link": "PCIe Gen4 x16"}),
    # -- load and targets
    ("Qwen2.5-72B 推理，20 个并发，8卡H100够吗", {"concurrency": 20, "model": "Qwen2.5-72B"}),
    ("部署70B模型，8个并发用户，需要几张A100", {"concurrency": 8, "asks": "gpu_count"}),
    ("serve Llama-2-70B to 20 concurrent users on 4 H100", {"concurrency": 20, "gpu_count": 4}),
    ("QPS 5, Llama-2-13B inference, how many L40S?", {"target_qps": 5.0, "asks": "gpu_count"}),
    (
        "1000 tok/s 需要几张A100跑Llama-2-70B",
        {"target_tokens_per_second": 1000.0, "asks": ("gpu_count", "throughput")},
    ),
    (
        "QPS 10 with the first token under 1 s for a 70B model on H100",
        {"target_qps": 10.0, "target_first_token_seconds": 1.0},
    ),
    ("首字延迟500ms以内，部署Qwen2.5-7B", {"target_first_token_seconds": 0.5}),
    # -- money, energy, host RAM
    (
        "预算20万元，每卡时15元，能训练7B吗",
        {"budget": 200000.0, "price_per_gpu_hour": 15.0, "currency": "CNY"},
    ),
    (
        "电价0.6元/度，8卡H100训练7B要多少电费",
        {"price_per_kwh": 0.6, "currency": "CNY", "asks": "energy_cost"},
    ),
    (
        "at $0.12 per kWh what is the electricity cost of training 7B on 8 H100?",
        {"price_per_kwh": 0.12, "currency": "USD", "asks": "energy_cost"},
    ),
    ("budget of $50,000 to fine-tune 70B on rented H100", {"budget": 50000.0, "currency": "USD"}),
    (
        "单机8卡4090，512GB内存，ZeRO-offload微调70B",
        # server RAM is sold in binary sizes: 512 GiB (parse3, one convention with the catalog)
        {"host_ram_bytes": 512 * 2**30, "gpu_memory_bytes": None},
    ),
    ("one node with 1TB RAM and 8 A100 for QLoRA on 70B", {"host_ram_bytes": 2**40}),
    # -- names
    ("Qwen2-7B 推理需要多少显存", {"model": "Qwen2-7B", "unknown": ()}),
    ("Qwen2-57B-A14B on 4 A100", {"model": "Qwen2-57B-A14B", "unknown": ()}),
    # Not in the catalog: a look-alike of Qwen2.5-7B (key qwen257b) and a made-up version, named
    # as typed.
    ("Qwen2-57B 推理需要多少显存", {"model": None, "unknown": ("Qwen2-57B",)}),
    ("Qwen9-57B-A14B on 4 A100", {"model": None, "unknown": ("Qwen9-57B-A14B",)}),
    ("8 RTX 7090 serve 70B", {"gpu": None, "unknown": ("RTX 7090",), "gpu_count": 8}),
    ("4张4090D跑Llama-2-70B int4 推理", {"gpu": "RTX 4090D 24GB", "gpu_count": 4}),
    ("DeepSeek-V2-Lite on one A6000", {"model": "DeepSeek-V2-Lite", "gpu": "RTX A6000 48GB"}),
    ("Can a 24GB card run a 7B model at 4-bit?", {"gpu": None, "gpu_memory_bytes": 24e9}),
    ("Llama-5-400B on 64 H100", {"model": None, "unknown": ("Llama-5-400B",), "gpu_count": 64}),
    ("8 MI355X serve 70B", {"gpu": None, "unknown": ("MI355X",), "gpu_count": 8}),
    ("Llama-2-70B inference on 8 A100", {"model": "Llama-2-70B", "unknown": ()}),
    # -- asks
    ("8张H100训练7B大概要多久能训完", {"asks": "duration"}),
    ("训练70B模型需要几张H100", {"asks": "gpu_count"}),
    ("Llama-2-70B 4-bit 权重有多大", {"asks": "weights", "precision": "int4"}),
    ("Llama-2-70B 32k上下文 KV cache占多少显存", {"asks": "kv_cache", "context_length": 32768}),
    ("8卡A100训练7B要花多少钱", {"asks": "cost"}),
    ("72B模型 int4 量化后多大", {"asks": "weights", "precision": "int4"}),
    ("GLM-4-9B 在 T4 上推理能跑多快", {"asks": "throughput"}),
    # preference tuning starts from a trained model: a fine-tune, not pre-training on 18T tokens
    ("用DPO训练Qwen2.5-14B，8张A100够吗", {"task": "finetune"}),
    ("RLHF 训练 70B 需要多少卡", {"task": "finetune"}),
    # the fabric's speed typed after its name
    ("4台8卡H800，IB 200G，全参微调70B，多久", {"inter_link": "InfiniBand HDR"}),
    ("两台8卡910B，RoCE 200G，预训练7B", {"inter_link": "200GbE RoCE"}),
    ("两台8卡A800，机间25G，预训练13B", {"inter_link": "25GbE TCP"}),
    ("Qwen2.5-14B fp32 推理 显存", {"asks": "memory"}),  # a question that ends at 显存
    # "几台8卡": the nodes are asked for, 8 is per node (not 8 GPUs in all)
    (
        "Mixtral 8x22B 全参微调需要几台8卡H100",
        {"gpu_count": None, "gpus_per_node": 8, "asks": "gpu_count"},
    ),
    ("万卡集群 H100 训练 405B 需要多久，15万亿token", {"gpu_count": 10000, "tokens": 15e12}),
    ("并发改成32", {"concurrency": 32, "batch_size": 32}),  # a follow-up's verb before the count
    # the other verbs that set a load ("开到", "拉到", "提升到"), one list for both readers
    ("那并发开到64呢", {"concurrency": 64, "batch_size": 64}),
    ("并发数提升到128", {"concurrency": 128, "batch_size": 128}),
    ("并发拉到 16 试试", {"concurrency": 16, "batch_size": 16}),
    # how far apart two cards are is a comparison; one card's "还差多少" is not
    (
        "H100和A100训练7B模型，速度差多少",
        {"asks": "compare", "options": ("H100 SXM 80GB", "A100 SXM 80GB")},
    ),
    (
        "H100比A100快多少，推理Llama-3.1-70B，8卡",
        {"asks": "compare", "options": ("H100 SXM 80GB", "A100 SXM 80GB")},
    ),
    ("8张H100训练7B，显存还差多少", {"options": ()}),
    ("千问2.5 72B 推理 需要 几张 4090", {"model": "Qwen2.5-72B", "unknown": ()}),
    # people using it at once are concurrent sequences; requests a second are a QPS target
    ("想部署Llama-3.1-8B给200人同时用，4090要几张", {"concurrency": 200, "asks": "gpu_count"}),
    ("同时有50个用户在线，H20够吗", {"concurrency": 50}),
    ("Qwen2.5-7B 推理 每秒要处理50个请求 需要几张L20", {"target_qps": 50.0}),
    # a budget's yes/no is a yes/no (its headline says whether the money is enough)
    ("预算20万元，8张A100训练7B模型，钱够吗", {"asks": "feasibility", "budget": 200000.0}),
    # the batch is the number at 并发, not the "8" of the "8k" context after it
    (
        "vllm部署Qwen2.5-72B，8张L20，32并发 8k上下文",
        {"batch_size": 32, "concurrency": 32, "context_length": 8192},
    ),
    ("8张H100训练一个月多少电费", {"asks": "energy_cost"}),
    ("8卡H100满载功耗多少", {"asks": "power"}),
    (
        "8卡H100跑Llama-2-70B，32k上下文最多支持多少并发",
        {"asks": "max_concurrency", "context_length": 32768},
    ),
    (
        "8张A100一个月内最大能训练多大的模型",
        {"asks": "max_model", "gpu_count": 8, "deadline_seconds": 30 * DAY},
    ),
    (
        "8×H20 vs 8×910B for 70B inference",
        {"asks": "compare", "options": ("H20 96GB", "Ascend 910B 64GB"), "params": 70e9},
    ),
    (
        "H100 和 A100 哪个训练70B更快",
        {"asks": "compare", "options": ("H100 SXM 80GB", "A100 SXM 80GB")},
    ),
    ("What is ZeRO-3?", {"asks": "concept"}),
    ("KV cache是什么", {"asks": "concept"}),
    ("Can 8 H100 train a 70B model in a month?", {"asks": "feasibility"}),
    ("How long does it take to pretrain 7B on 64 A100?", {"asks": "duration", "gpu_count": 64}),
    ("How much memory does Llama-2-13B need for inference?", {"asks": "memory"}),
    (
        "how many concurrent users can 4 H100 serve Llama-2-70B at 8k context",
        {"asks": "max_concurrency"},
    ),
    ("What's the largest model 8 A100 can fine-tune with LoRA?", {"asks": "max_model"}),
    # -- cards from makers outside the catalog: named, never "no GPU given" (answers2)
    ("MTT S4000 能跑 Qwen2-7B 吗?", {"gpu": None, "unknown": ("MTT S4000",), "model": "Qwen2-7B"}),
    ("8张摩尔线程S4000训练7B", {"gpu": None, "unknown": ("摩尔线程S4000",), "gpu_count": 8}),
    ("壁仞BR100能推理Llama-2-70B吗", {"gpu": None, "unknown": ("壁仞BR100",)}),
    ("海光DCU K100 能跑 7B 吗", {"gpu": None, "unknown": ("海光DCU K100",)}),
    (
        "8 Cambricon MLU370 serve 70B",
        {"gpu": None, "unknown": ("Cambricon MLU370",), "gpu_count": 8},
    ),
    ("昆仑芯 P800 推理 Qwen2-7B", {"gpu": None, "unknown": ("昆仑芯 P800",)}),
    # "BI-V100" is Iluvatar's card, not the catalog's V100
    ("天数智芯 BI-V100 跑7B", {"gpu": None, "unknown": ("天数智芯 BI-V100",)}),
    ("用 XPU300 卡 推理 7B", {"gpu": None, "unknown": ("XPU300",)}),
    ("4 S4000 GPUs serve Llama-2-13B", {"gpu": None, "unknown": ("S4000",), "gpu_count": 4}),
    # a deadline glued to a word, a context in "N tokens of context" (answers2)
    (
        "8张H100训练7B模型，1T token30天内能完成吗",
        {"tokens": 1e12, "deadline_seconds": 30 * DAY, "gpu_count": 8},
    ),
    (
        "Serve Llama-3-8B on 1 H100 with 16k tokens of context",
        {"context_length": 16384, "tokens": None},
    ),
    ("Serve Llama-3-8B on 1 H100 with a 16k-token context", {"context_length": 16384}),
    (
        "pretrain 7B on 300B tokens with 8 H100, 4k context",
        {"tokens": 3e11, "context_length": 4096},
    ),
    # "fully" states a full fine-tune; "fully sharded" does not
    ("How long to fine-tune Qwen2.5-72B fully on 4 nodes of 8x H100?", {"method": "full"}),
    ("Can 8 H100 fully fine-tune Qwen2.5-72B?", {"method": "full"}),
    ("fine-tune 13B with fully sharded data parallel on 8 A100", {"method": None}),
    # offload to host memory is a stated choice, not only a suggestion (answers2)
    (
        "fine-tune Llama-2-13B on 2 RTX 4090 with ZeRO-3 CPU offload",
        {"offload": True, "zero_stage": 3},
    ),
    ("全参微调13B，2张4090，ZeRO-3 offload 到内存，主机内存256GB", {"offload": True}),
    ("fine-tune Llama-2-13B on 2 RTX 4090 without offload", {"offload": False}),
    ("不用offload，8张A100全参微调70B能行吗", {"offload": False}),
    ("8 A100 train 70B", {"offload": None}),
    # not names: "训练天数" is a number of days, "fp16 卡" a number format, "x16" a lane count
    ("训练天数大概多少 8张A100 7B", {"gpu": "A100 SXM 80GB", "unknown": (), "gpu_count": 8}),
    ("8 A100 PCIe x16 card, fp16 卡, 7B inference", {"gpu": "A100 PCIe 80GB", "unknown": ()}),
]

HELD_OUT: list[Row] = [
    (
        "3 nodes of 8x A800 pretrain 30B",
        {"gpu": "A800 SXM 80GB", "nodes": 3, "gpus_per_node": 8, "gpu_count": 24},
    ),
    (
        "16xH100 fine-tune Llama-2-70B",
        {"gpu": "H100 SXM 80GB", "gpu_count": 16, "model": "Llama-2-70B"},
    ),
    (
        "2x8 A100 over 100G RoCE",
        {"nodes": 2, "gpus_per_node": 8, "gpu_count": 16, "inter_link": "100GbE RoCE"},
    ),
    ("三台服务器每台8张A800，千兆网，训练13B", {"nodes": 3, "gpus_per_node": 8, "gpu_count": 24}),
    (
        "4台每台8张4090推理70B",
        {"nodes": 4, "gpus_per_node": 8, "gpu_count": 32, "task": "inference"},
    ),
    (
        "four servers with 8x H100 each and 400G InfiniBand",
        {"nodes": 4, "gpu_count": 32, "inter_link": "InfiniBand NDR"},
    ),
    ("8 H800 no NVLink, 70B inference", {"intra_link": "PCIe Gen5 x16"}),
    ("16 V100 PCIe-only train 7B", {"gpu": "V100 PCIe 32GB", "gpu_count": 16}),
    ("两台8卡H100，25GbE，训练70B", {"inter_link": "25GbE TCP", "gpu_count": 16}),
    ("50个并发，部署Qwen2.5-14B需要几张L40S", {"concurrency": 50, "asks": "gpu_count"}),
    (
        "100 concurrent users on Llama-2-13B, how many A10?",
        {"concurrency": 100, "asks": "gpu_count"},
    ),
    (
        "serve 70B at 2000 tokens per second, how many H100 do I need",
        {"target_tokens_per_second": 2000.0, "asks": "gpu_count"},
    ),
    (
        "QPS 20, 首token 1秒以内, Qwen2.5-72B 需要多少张H20",
        {"target_qps": 20.0, "target_first_token_seconds": 1.0, "asks": "gpu_count"},
    ),
    (
        "预算100万元，H100每卡时20元，预训练13B要多久",
        {"budget": 1e6, "price_per_gpu_hour": 20.0, "asks": "duration"},
    ),
    (
        "electricity at $0.10 per kWh, how much to train 13B on 64 H100 for 2 weeks",
        {"price_per_kwh": 0.10, "asks": "energy_cost"},
    ),
    ("每度电0.8元，8卡A100训练一个月电费多少", {"price_per_kwh": 0.8, "asks": "energy_cost"}),
    # the kWh before its price ("一度0.6元", "一度电0.8" with the currency unsaid)
    ("64张A800训练30天，电费按一度0.6元，多少钱", {"price_per_kwh": 0.6, "currency": "CNY"}),
    ("千卡H100跑一天电费多少？一度电0.8", {"price_per_kwh": 0.8, "currency": "CNY"}),
    ("8张H100满载跑1度电3万元？", {"price_per_kwh": None}),  # an amount, no price
    # 卡时 with no 每 before the price; the price is no budget
    ("预算50万，H100训13B，260B token，卡时15块一个，够吗", {"price_per_gpu_hour": 15.0}),
    ("A800卡时8块钱，全参微调7B要花多少钱", {"price_per_gpu_hour": 8.0, "budget": None}),
    ("H100总共要10000卡时15元够吗", {"price_per_gpu_hour": None}),  # 10000 GPU-hours
    # one request's own speed asked, not a rate of one request per second
    (
        "单机8张910B推理Qwen2.5-72B，一个请求每秒能出多少token？",
        {"target_qps": None, "fastest_stream": True, "concurrency": 1},
    ),
    ("Qwen2.5-7B 10个请求每秒，要几张L20", {"target_qps": 10.0}),
    # a bare count of cards before what they must do ("一张够吗"); 块 may be money
    ("换成int8量化，一张够吗？", {"gpu_count": 1, "precision": "int8"}),
    ("70B推理，两张够不够", {"gpu_count": 2}),
    ("8块够吗", {"gpu_count": None}),
    ("host RAM 256 GB, fine-tune 13B with ZeRO-3 offload on 2 4090", {"host_ram_bytes": 256e9}),
    ("full fine-tune of 70B on 8 A100 with 1 TB of RAM per node", {"host_ram_bytes": 1e12}),
    ("我们有20万预算，想微调一个70B模型，租H800每卡时12元，够吗", {"budget": 200000.0}),
    ("8张H100，20万元的预算够训练7B吗", {"budget": 200000.0, "currency": "CNY"}),
    ("有8张卡，预算不限，能训练7B吗", {"budget": None}),
    (
        "a 48GB card for Llama-2-13B inference in fp16?",
        {"gpu": None, "gpu_memory_bytes": 48e9, "task": "inference"},
    ),
    ("Gaudi3 8 cards train 70B", {"gpu": None, "unknown": ("gaudi3",)}),
    ("DeepSeek-V3 inference on 16 H20", {"model": "DeepSeek-V3", "unknown": ()}),
    ("Mixtral-8x22B 推理需要几张H100", {"asks": "gpu_count"}),
    ("70B模型FP16推理权重占多少显存", {"asks": ("weights",)}),
    (
        "Llama-2-70B with 4k context and batch 16: how big is the KV cache?",
        {"asks": "kv_cache", "batch_size": 16},
    ),
    (
        "64张A100训练70B一共要花多少钱，每卡时2美元",
        {"asks": "cost", "price_per_gpu_hour": 2.0, "currency": "USD"},
    ),
    ("how much power do 64 H100 draw", {"asks": "power", "gpu_count": 64}),
    ("4卡L40S最大能部署多大的模型", {"asks": "max_model", "gpu_count": 4}),
    (
        "8x A100 vs 4x H100 vs 8x 910B for fine-tuning 13B",
        {"asks": "compare", "options": ("A100 SXM 80GB", "H100 SXM 80GB", "Ascend 910B 64GB")},
    ),
    (
        "用8张4090还是2张A100微调7B更划算",
        {"asks": "compare", "options": ("RTX 4090 24GB", "A100 SXM 80GB")},
    ),
    ("什么是张量并行？", {"asks": "concept"}),
    ("8卡A800能全参微调70B吗", {"asks": "feasibility", "method": "full"}),
]
