"""Realism matrix: the calculators' verdicts against deployments and runs practitioners documented.

Each row names its public source. A row states what really happened ("fits", "does not fit",
"finished in about N days", "N GPU-hours") and the test checks that `evaluate()` (or
`min_gpus_to_fit`) agrees. When a row failed, the model was fixed, not the row; the comment on
the row says what changed. Figures that come only from arithmetic on the architecture are marked
"arithmetic". "Fits" means the memory check is "ok" or "tight"; "fails" means "fail".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import pytest

from calculators.catalog.hardware import lookup_gpu, lookup_link
from calculators.catalog.models import ModelSpec, generic_model, lookup_model
from calculators.compute_time import model_and_hardware_flops
from calculators.layout_search import min_gpus_to_fit
from calculators.planner import evaluate, run_checks
from calculators.planner.plan import DAY, Plan
from calculators.planner.schedule import uses_dualpipe


def _m(name: str) -> ModelSpec:
    return lookup_model(name)


def _serve(
    model: str,
    gpu: str,
    gpus: int,
    dtype: str = "bf16",
    *,
    context: int = 4096,
    batch: int = 1,
    pp: int = 1,
) -> Plan:
    """Serving with tensor parallelism over the GPUs of a node (and pipeline across nodes)."""
    return Plan(
        task="inference",
        model=_m(model),
        gpu=lookup_gpu(gpu),
        gpus=gpus,
        tensor_parallel=gpus // pp,
        pipeline_parallel=pp,
        weight_dtype=dtype,
        kv_dtype="fp8" if dtype == "fp8" else "bf16",
        sequence_length=context,
        batch_size=batch,
    )


@dataclass(frozen=True)
class MemoryRow:
    """A documented deployment: does the most-loaded GPU fit?"""

    name: str
    source: str
    plan: Callable[[], Plan]
    fits: bool


MEMORY_ROWS = [
    # Before this matrix, min_gpus_to_fit said 4: a 5% runtime overhead was added on top of the
    # 10% reserve of USABLE_FRACTION. The reserve now carries the runtime overhead alone.
    MemoryRow(
        "Llama-2-70B BF16 on 2 x A100 80GB (TP=2)",
        "vLLM/TGI tensor_parallel_size=2 deployments; Vidur's Llama-2-70B on 2 x A100 "
        "profile leaves a 16,492-token KV cache (Jaillet et al. 2025, arXiv:2504.07347)",
        lambda: _serve("Llama-2-70B", "A100 80GB", 2),
        True,
    ),
    MemoryRow(
        "Llama-2-70B FP16 on 1 x A100 80GB",
        "issue 2; 137.95 GB of weights (arithmetic)",
        lambda: _serve("Llama-2-70B", "A100 80GB", 1, "fp16"),
        False,
    ),
    MemoryRow(
        "Llama-2-70B FP16 on 1 x H100 80GB",
        "as above (arithmetic)",
        lambda: _serve("Llama-2-70B", "H100", 1, "fp16"),
        False,
    ),
    MemoryRow(
        "Llama-2-7B BF16 on 1 x RTX 4090",
        "13.5 GB of weights; common single-card "
        "serving (HF Llama 2 launch blog: 7B on one 24 GB A10G)",
        lambda: _serve("Llama-2-7B", "RTX 4090", 1),
        True,
    ),
    MemoryRow(
        "Llama-2-7B BF16 on 1 x A10",
        "HF Llama 2 launch blog (Jul 2023): 7B on 1 x A10G",
        lambda: _serve("Llama-2-7B", "A10", 1),
        True,
    ),
    MemoryRow(
        "Llama-2-7B BF16 on 1 x L4",
        "Google Cloud / HF TGI guides: 7B on one 24 GB L4",
        lambda: _serve("Llama-2-7B", "L4", 1),
        True,
    ),
    MemoryRow(
        "Llama-2-13B FP16 on 1 x A10",
        "26 GB of weights > 24 GB (arithmetic)",
        lambda: _serve("Llama-2-13B", "A10", 1, "fp16"),
        False,
    ),
    MemoryRow(
        "Llama-2-70B int4 on 1 x A100 80GB",
        "Lin et al. 2023, AWQ (arXiv:2306.00978): "
        "4-bit Llama-2-70B deployed on a 64 GB Jetson Orin",
        lambda: _serve("Llama-2-70B", "A100 80GB", 1, "int4"),
        True,
    ),
    MemoryRow(
        "Llama-3.1-405B FP8 on 8 x H100 80GB",
        "Llama Team 2024, Llama 3 (arXiv:2407.21783) "
        "§6.2 and Meta's Llama 3.1 release: FP8 405B runs on a single 8 x H100 server",
        lambda: _serve("Llama-3.1-405B", "H100", 8, "fp8"),
        True,
    ),
    MemoryRow(
        "Llama-3.1-405B BF16 on 8 x H100 80GB",
        "Llama 3 (arXiv:2407.21783) §6.1: BF16 "
        "405B does not fit one 8 x H100 machine; served on 16 GPUs of two machines",
        lambda: _serve("Llama-3.1-405B", "H100", 8),
        False,
    ),
    MemoryRow(
        "Llama-3.1-405B BF16 on 2 x 8 H100 (TP=8, PP=2)",
        "Llama 3 §6.1: two machines",
        lambda: _serve("Llama-3.1-405B", "H100", 16, pp=2),
        True,
    ),
    MemoryRow(
        "DeepSeek-V3 FP8 on 8 x H200",
        "SGLang DeepSeek V3 usage docs: FP8 on 8 x H200",
        lambda: _serve("DeepSeek-V3", "H200", 8, "fp8"),
        True,
    ),
    MemoryRow(
        "DeepSeek-V3 FP8 on 8 x MI300X",
        "SGLang DeepSeek V3 docs: FP8 on 8 x MI300X",
        lambda: _serve("DeepSeek-V3", "MI300X", 8, "fp8"),
        True,
    ),
    MemoryRow(
        "DeepSeek-V3 FP8 on 8 x H100 80GB",
        "SGLang DeepSeek V3 docs: FP8 needs 2 x 8 H100 (671 GB of weights > 640 GB x usable)",
        lambda: _serve("DeepSeek-V3", "H100", 8, "fp8"),
        False,
    ),
    MemoryRow(
        "DeepSeek-V3 FP8 on 2 x 8 H100 (TP=8, PP=2)",
        "SGLang DeepSeek V3 docs: 2 x 8 H100",
        lambda: _serve("DeepSeek-V3", "H100", 16, "fp8", pp=2),
        True,
    ),
    MemoryRow(
        "DeepSeek-V3 BF16 on 8 x H200",
        "SGLang docs: BF16 needs 2 x 8 H200",
        lambda: _serve("DeepSeek-V3", "H200", 8),
        False,
    ),
    MemoryRow(
        "DeepSeek-V3 BF16 on 4 x 8 A100 80GB (TP=8, PP=4)",
        "SGLang docs: BF16 on 4 x 8 A100",
        lambda: _serve("DeepSeek-V3", "A100 80GB", 32, pp=4),
        True,
    ),
    MemoryRow(
        "DeepSeek-V3 int4 (AWQ) on 8 x A100 80GB",
        "SGLang docs: AWQ on 8 x A100/A800",
        lambda: _serve("DeepSeek-V3", "A100 80GB", 8, "int4"),
        True,
    ),
    MemoryRow(
        "DeepSeek-V3 int8 on 2 x 8 A100 80GB",
        "SGLang docs: INT8 on 16 x A100/A800",
        lambda: _serve("DeepSeek-V3", "A100 80GB", 16, "int8", pp=2),
        True,
    ),
    MemoryRow(
        "DeepSeek-V3 int8 on 32 x L40S (TP=8, PP=4)",
        "SGLang docs: INT8 on 32 x L40S",
        lambda: _serve("DeepSeek-V3", "L40S", 32, "int8", pp=4),
        True,
    ),
    MemoryRow(
        "Mixtral-8x7B BF16 on 1 x A100 80GB",
        "HF 'Welcome Mixtral' blog: ~90 GB in half precision",
        lambda: _serve("Mixtral-8x7B", "A100 80GB", 1),
        False,
    ),
    # The brief expected Mixtral 4-bit to fit a 24 GB card. Practitioners report it does not:
    # 4-bit weights alone are ~23-24 GB (The Kaitchup, Jan 2024: "even 4-bit can't fully load it
    # on an RTX 3090 24 GB"; GGUF Q4_0 = 23.4 GB). The calculators agree; the row follows reality.
    MemoryRow(
        "Mixtral-8x7B int4 on 1 x RTX 4090",
        "The Kaitchup 2024-01-08: 4-bit Mixtral does not fit a 24 GB card",
        lambda: _serve("Mixtral-8x7B", "RTX 4090", 1, "int4"),
        False,
    ),
    MemoryRow(
        "Mixtral-8x7B int4 on 1 x A100 40GB",
        "transformers Mixtral docs: quantized to 4 bits, a single A100 is enough",
        lambda: _serve("Mixtral-8x7B", "A100 40GB", 1, "int4"),
        True,
    ),
    MemoryRow(
        "OPT-175B FP16 on 8 x A100 80GB",
        "Kwon et al. 2023, vLLM (arXiv:2309.06180) Table 1: OPT-175B served on 8 x A100-80GB",
        lambda: _serve("OPT-175B", "A100 80GB", 8, "fp16", context=2048),
        True,
    ),
    # Fine-tuning.
    MemoryRow(
        "QLoRA LLaMA-65B on 1 x 48 GB GPU",
        "Dettmers et al. 2023, QLoRA "
        "(arXiv:2305.14314) abstract: 65B fine-tuned on a single 48 GB GPU (qlora.py "
        "defaults: 1024 + 256 tokens, batch 1)",
        lambda: Plan(
            task="finetune",
            method="qlora",
            model=_m("LLaMA-65B"),
            gpu=lookup_gpu("L40S"),
            gpus=1,
            sequence_length=1280,
        ),
        True,
    ),
    MemoryRow(
        "LoRA Llama-2-7B BF16 on 1 x RTX 4090",
        "PEFT LoRA recipes on one 24 GB card; 13.5 GB frozen base + adapters (arithmetic)",
        lambda: Plan(
            task="finetune",
            method="lora",
            model=_m("Llama-2-7B"),
            gpu=lookup_gpu("RTX 4090"),
            gpus=1,
            sequence_length=2048,
        ),
        True,
    ),
    MemoryRow(
        "Full fine-tune Llama-2-7B, Adam, 1 x A100 80GB, no ZeRO/offload",
        "ZeRO (arXiv:1910.02054) §3.1: 16 bytes/param = 108 GB > 80 GB",
        lambda: Plan(
            task="finetune",
            method="full",
            model=_m("Llama-2-7B"),
            gpu=lookup_gpu("A100 80GB"),
            gpus=1,
        ),
        False,
    ),
    MemoryRow(
        "Full fine-tune 7B with FSDP full_shard on 4 x A100 80GB",
        "Stanford Alpaca (2023) README: LLaMA-7B fine-tuned on 4 x A100 80G, FSDP full_shard",
        lambda: Plan(
            task="finetune",
            method="full",
            model=_m("Llama-2-7B"),
            gpu=lookup_gpu("A100 80GB"),
            gpus=4,
            zero_stage=3,
            sequence_length=512,
            micro_batch_size=4,
        ),
        True,
    ),
    MemoryRow(
        "Full fine-tune 7B with ZeRO-3 on 8 x A100 80GB",
        "ZeRO-3 shards 108 GB over 8",
        lambda: Plan(
            task="finetune",
            method="full",
            model=_m("Llama-2-7B"),
            gpu=lookup_gpu("A100 80GB"),
            gpus=8,
            zero_stage=3,
        ),
        True,
    ),
    # ZeRO-Offload keeps only the fp16 weights on the GPU: gradients and optimizer states go to
    # the host. Before, offload moved only the optimizer states (26 + 26 GB > 32 GB).
    MemoryRow(
        "Llama-2-13B with ZeRO-Offload on 1 x V100 32GB",
        "Ren et al. 2021, ZeRO-Offload (arXiv:2101.06840) abstract: 13B on a single V100",
        lambda: Plan(
            task="finetune",
            method="full",
            model=_m("Llama-2-13B"),
            gpu=lookup_gpu("V100 32GB"),
            gpus=1,
            precision="fp16",
            offload=True,
            sequence_length=1024,
        ),
        True,
    ),
    # FSDP-QLoRA (Answer.AI 2024). Before, ZeRO-3 sharded the 4-bit base but a whole layer was
    # counted as dequantized (bitsandbytes dequantizes one matrix at a time), CPU offload moved
    # only the adapters' optimizer states (FSDP CPUOffload moves the base shards too), and
    # min_gpus kept the pipeline's selective recompute: it said 8 x RTX 4090 for 70B.
    MemoryRow(
        "QLoRA Llama-2-70B, FSDP + CPU offload, 2 x RTX 4090, 2,048 tokens, batch 2",
        "AnswerDotAI/fsdp_qlora README and benchmarks_03_2024.md: dual 4090, "
        "--use_cpu_offload true, peak 14.92 GiB per GPU",
        lambda: Plan(
            task="finetune",
            method="qlora",
            model=_m("Llama-2-70B"),
            gpu=lookup_gpu("RTX 4090"),
            gpus=2,
            zero_stage=3,
            offload=True,
            sequence_length=2048,
            micro_batch_size=2,
        ),
        True,
    ),
    MemoryRow(
        "QLoRA Llama-2-70B, FSDP, 2 x RTX 4090 without offload, 2,048 tokens",
        "Answer.AI runs 70B on two 24 GB cards only with CPU offload (benchmarks_03_2024"
        ".md); 36.8 GB of 4-bit base / 2 + activations > 21.6 GB usable (arithmetic)",
        lambda: Plan(
            task="finetune",
            method="qlora",
            model=_m("Llama-2-70B"),
            gpu=lookup_gpu("RTX 4090"),
            gpus=2,
            zero_stage=3,
            sequence_length=2048,
        ),
        False,
    ),
    MemoryRow(
        "QLoRA Llama-2-70B, FSDP, 4 x 24 GB without offload, 2,048 tokens",
        "benchmarks_03_2024.md: 4 x A5000 24GB, no offload, batch 1 (RTX 3090 stands in "
        "for the A5000: same 24 GB)",
        lambda: Plan(
            task="finetune",
            method="qlora",
            model=_m("Llama-2-70B"),
            gpu=lookup_gpu("RTX 3090"),
            gpus=4,
            zero_stage=3,
            sequence_length=2048,
        ),
        True,
    ),
    MemoryRow(
        "QLoRA Llama-2-70B, FSDP, 4 x A100 40GB, 512 tokens, batch 2",
        "AnswerDotAI/fsdp_qlora README: 'Llama 70B 4-A100 40GB Training', no CPU offload",
        lambda: Plan(
            task="finetune",
            method="qlora",
            model=_m("Llama-2-70B"),
            gpu=lookup_gpu("A100 40GB"),
            gpus=4,
            zero_stage=3,
            sequence_length=512,
            micro_batch_size=2,
        ),
        True,
    ),
    MemoryRow(
        "QLoRA Llama-2-70B, FSDP, 2 x A100 40GB, 2,048 tokens",
        "benchmarks_03_2024.md: 2 x A100 40GB SXM, no offload, batch 1",
        lambda: Plan(
            task="finetune",
            method="qlora",
            model=_m("Llama-2-70B"),
            gpu=lookup_gpu("A100 40GB"),
            gpus=2,
            zero_stage=3,
            sequence_length=2048,
        ),
        True,
    ),
    MemoryRow(
        "Full fine-tune Llama-2-70B, ZeRO-3 on 8 x A100 80GB, no offload",
        "ZeRO §3.1: 16 x 69e9 = 1.1 TB / 8 = 138 GB per GPU (arithmetic)",
        lambda: Plan(
            task="finetune",
            method="full",
            model=_m("Llama-2-70B"),
            gpu=lookup_gpu("A100 80GB"),
            gpus=8,
            zero_stage=3,
        ),
        False,
    ),
]


@pytest.mark.parametrize("row", MEMORY_ROWS, ids=lambda r: r.name)
def test_memory_verdict_matches_practice(row: MemoryRow) -> None:
    memory = run_checks(row.plan(), with_min_gpus=False)[0]
    assert (memory.verdict != "fail") == row.fits, (
        row.source,
        memory.figures["required_bytes_per_gpu"],
        memory.figures["available_bytes_per_gpu"],
    )


@pytest.mark.parametrize(
    ("model", "gpu", "dtype", "expected"),
    [
        # vLLM/TGI: Llama-2-70B BF16 on 2 x A100 80GB; TP=2 divides its 64 heads and 8 KV heads.
        ("Llama-2-70B", "A100 80GB", "bf16", 2),
        ("Llama-2-7B", "RTX 4090", "bf16", 1),
        ("Llama-3.1-405B", "H100", "fp8", 8),  # Llama 3 §6.2
        ("DeepSeek-V3", "H200", "fp8", 8),  # SGLang docs
        ("DeepSeek-V3", "H100", "fp8", 16),  # SGLang docs: 2 x 8 H100
    ],
)
def test_min_gpus_to_serve_matches_practice(
    model: str, gpu: str, dtype: str, expected: int
) -> None:
    plan = min_gpus_to_fit(
        gpu=lookup_gpu(gpu),
        model=_m(model),
        kind="inference",
        weight_dtype=dtype,
        kv_dtype="fp8" if dtype == "fp8" else "bf16",
    )
    assert plan is not None
    assert plan.gpus == expected


def _train(model: ModelSpec, gpu: str, gpus: int, tokens: float, **extra: object) -> Plan:
    return Plan(
        task="pretrain",
        model=model,
        gpu=lookup_gpu(gpu),
        gpus=gpus,
        tokens=tokens,
        deadline_seconds=3650 * DAY,
        inter_link=lookup_link("HDR"),
        nics_per_node=8,
        **extra,
    )  # type: ignore[arg-type]


def _gpt3_mfu() -> float:
    model = _m("GPT-3 175B")
    flops = model_and_hardware_flops(
        active_params=model.active_params,
        tokens=300e9,
        recompute="full",
        model=model,
        sequence_length=2048,
    )
    return 140 / 312 * flops.model_flops / flops.hardware_flops


_GPT3_MFU = _gpt3_mfu()


#: Published A100 runs reached 34-49% model-FLOPs utilisation (BLOOM ~36%, MPT-7B ~39%, Llama 2
#: ~45% counting attention as PaLM does, LLaMA-65B ~49%); the 0.40 planning default lands within
#: 25% of each of them, erring long on the best-tuned runs.
DEFAULT_MFU_SPREAD = 0.25


@dataclass(frozen=True)
class RunRow:
    """A published training run: wall-clock days or GPU-hours, and the tolerance we accept."""

    name: str
    source: str
    plan: Callable[[], Plan]
    days: float | None = None
    gpu_hours: float | None = None
    tolerance: float = DEFAULT_MFU_SPREAD
    check_memory: bool = True
    compute_only: bool = False
    """Compare the compute time C / (n x peak x MFU): the MFU is the run's own measured
    end-to-end figure (it already pays its pipeline bubble and communication), or the run
    hides what the planner adds (DualPipe, interleaved 1F1B)."""


RUN_ROWS = [
    RunRow(
        "GPT-3 175B, 300B tokens, 1024 A100 at 140 TFLOP/s",
        "Narayanan et al. 2021 (arXiv:2104.04473) eq. (4): about 34 days",
        # 140 TFLOP/s counts the 8ND executed with full recompute (45% hardware
        # utilisation); as an MFU of the model FLOPs it is 140/312 x 6/8 (+ attention).
        lambda: _train(
            _m("GPT-3 175B"),
            "A100 80GB",
            1024,
            300e9,
            mfu=_GPT3_MFU,
            recompute="full",
            tensor_parallel=8,
            pipeline_parallel=16,
            sequence_length=2048,
        ),
        days=34,
        tolerance=0.05,
        compute_only=True,
    ),
    RunRow(
        "Llama-2-70B, 2T tokens",
        "Touvron et al. 2023 (arXiv:2307.09288) Table 2: 1,720,320 A100-80GB GPU-hours",
        lambda: _train(_m("Llama-2-70B"), "A100 80GB", 2048, 2e12, tensor_parallel=8, zero_stage=1),
        gpu_hours=1_720_320,
    ),
    RunRow(
        "Llama-2-7B, 2T tokens",
        "Llama 2 Table 2: 184,320 GPU-hours",
        lambda: _train(_m("Llama-2-7B"), "A100 80GB", 512, 2e12, zero_stage=3),
        gpu_hours=184_320,
    ),
    RunRow(
        "Llama-2-13B, 2T tokens",
        "Llama 2 Table 2: 368,640 GPU-hours",
        lambda: _train(_m("Llama-2-13B"), "A100 80GB", 512, 2e12, zero_stage=3),
        gpu_hours=368_640,
    ),
    RunRow(
        "Llama-3.1-405B, 15.6T tokens on H100",
        "Llama 3.1 model card: 30.84M H100 "
        "GPU-hours; Llama 3 (arXiv:2407.21783) §3.3: 3.8e25 FLOPs",
        # Llama 3 §3.3.2 / Table 4: 16M-token batches and an interleaved, tuned 1F1B
        # schedule; the 0.38 Hopper default IS this run's end-to-end MFU (bubble paid).
        lambda: _train(
            _m("Llama-3.1-405B"),
            "H100",
            16384,
            15.6e12,
            tensor_parallel=8,
            pipeline_parallel=16,
            zero_stage=1,
            sequence_length=8192,
            global_batch_tokens=16e6,
        ),
        # Not modelled: Meta's memory savings for 8K-token 405B pipelines (fewer layers on the
        # first and last stages, tuned micro-batching); with 34·sbh activations per layer
        # the first stage needs ~87 GB, so only the time is checked here.
        gpu_hours=30.84e6,
        tolerance=0.15,
        check_memory=False,
        compute_only=True,
    ),
    RunRow(
        "BLOOM-176B, 366B tokens, 384 A100 80GB",
        "Le Scao et al. 2022, BLOOM (arXiv:2211.05100) §3.4.1: about 3.5 months (~107 days)",
        lambda: _train(
            _m("BLOOM-176B"),
            "A100 80GB",
            384,
            366e9,
            tensor_parallel=4,
            pipeline_parallel=12,
            zero_stage=1,
            sequence_length=2048,
        ),
        days=107,
    ),
    RunRow(
        "LLaMA-65B, 1.4T tokens, 2048 A100 80GB",
        "Touvron et al. 2023, LLaMA (arXiv:2302.13971) §2.4: 380 tokens/s/GPU, about 21 days",
        lambda: _train(
            _m("LLaMA-65B"),
            "A100 80GB",
            2048,
            1.4e12,
            tensor_parallel=8,
            zero_stage=1,
            sequence_length=2048,
        ),
        days=21,
    ),
    RunRow(
        "MPT-7B, 1T tokens, 440 A100 40GB",
        "MosaicML MPT-7B release (May 2023): 9.5 days on 440 A100-40GB",
        lambda: _train(
            generic_model(params=6.7e9), "A100 40GB", 440, 1e12, zero_stage=3, sequence_length=2048
        ),
        days=9.5,
    ),
    # FP8 training: MFU stated against the dense FP8 peak (1.3x the BF16 default on Hopper).
    RunRow(
        "DeepSeek-V3 FP8, 14.8T tokens on 2,048 H800",
        "DeepSeek-AI 2024, DeepSeek-V3 "
        "(arXiv:2412.19437) Table 1 and §3.3: 2,664K H800 GPU-hours of FP8 pre-training",
        # §3.2: 16-way PP, 64-way EP, ZeRO-1; §4.2: batches up to 15,360 x 4,096 tokens.
        # DualPipe (§3.2.1) hides the all-to-all and most of the bubble; the planner models
        # it now (calculators.planner.schedule), so the wall clock is compared. Memory is not
        # checked: DeepSeek's own savings (BF16 Adam moments, FP8 activation caching,
        # recomputed norms and MLA up-projections, §3.3) are not modelled.
        lambda: _train(
            _m("DeepSeek-V3"),
            "H800",
            2048,
            14.8e12,
            precision="fp8",
            pipeline_parallel=16,
            zero_stage=1,
            expert_parallel=64,
            global_batch_tokens=15360 * 4096,
        ),
        gpu_hours=2.664e6,
        tolerance=0.15,
        check_memory=False,
    ),
    RunRow(
        "OPT-175B, 180B tokens, 992 A100 80GB at 147 TFLOP/s",
        "Zhang et al. 2022, OPT "
        "(arXiv:2205.01068) §2.4-2.5: 992 A100 80GB, 147 TFLOP/s per GPU; compute alone "
        "is ~15 days (restarts stretched it to about two months)",
        lambda: _train(
            _m("OPT-175B"),
            "A100 80GB",
            992,
            180e9,
            mfu=147 / 312,
            tensor_parallel=8,
            zero_stage=3,
            sequence_length=2048,
            # 2M-token batches over 992 / TP 8 = 124 replicas: 8 sequences each, one
            # micro-batch (FSDP gathers the weights in every micro-batch, ZeRO++ §3), with
            # activation checkpointing assumed (8 x 2,048 tokens do not fit otherwise)
            micro_batch_size=8,
            recompute="full",
        ),
        days=15,
        tolerance=0.10,
    ),
]


@pytest.mark.parametrize("row", RUN_ROWS, ids=lambda r: r.name)
def test_published_runs_take_as_long_as_reported(row: RunRow) -> None:
    e = evaluate(row.plan(), max_suggestions=0)
    compute = e.check("compute").figures
    if row.check_memory:
        assert e.check("memory").verdict != "fail", row.source
    seconds = float(compute["compute_seconds" if row.compute_only else "seconds"])  # type: ignore[arg-type]
    assert float(compute["seconds"]) >= seconds  # type: ignore[arg-type]
    if row.days is not None:
        assert seconds / DAY == pytest.approx(row.days, rel=row.tolerance), row.source
    if row.gpu_hours is not None:
        hours = seconds * row.plan().gpus / 3600
        assert hours == pytest.approx(row.gpu_hours, rel=row.tolerance), row.source


@pytest.mark.parametrize(
    "row",
    [
        r
        for r in RUN_ROWS
        if not r.compute_only and r.plan().pipeline_parallel > 1 and not uses_dualpipe(r.plan())
    ],
    ids=lambda r: r.name,
)
def test_pipeline_runs_match_with_their_bubble_paid(row: RunRow) -> None:
    # BLOOM (PP = 12, arXiv:2211.05100 §3.4.1): the published days are matched by the wall
    # clock with the 1F1B bubble and exposed communication, not by the compute time alone.
    compute = evaluate(row.plan(), max_suggestions=0).check("compute").figures
    assert float(compute["pipeline_bubble"]) > 0.0  # type: ignore[arg-type]
    assert float(compute["seconds"]) > float(compute["compute_seconds"])  # type: ignore[arg-type]
    assert row.days is not None
    assert float(compute["seconds"]) / DAY == pytest.approx(row.days, rel=row.tolerance)


def test_deepseek_v3_expert_all_to_all_is_about_as_long_as_its_compute() -> None:
    # A network-bound published run: DeepSeek-V3 (arXiv:2412.19437) §3.2.1 reports that
    # cross-node expert parallelism gives "a computation-to-communication ratio of
    # approximately 1:1", which DualPipe then overlaps. Over the cluster's IB (§3.2.2: 50 GB/s
    # per GPU, InfiniBand NDR, one NIC per GPU) the planner's MoE all-to-all of the 64-way EP
    # lands in that range (node-limited routing, §2.1.2: at most 4 nodes per token, counted).
    # Under DualPipe, the published schedule, it hides and the F = B = W bubble is zero, so the
    # wall clock is the compute; with Megatron's 1F1B it exceeds the compute.
    row = next(r for r in RUN_ROWS if r.name.startswith("DeepSeek-V3"))
    plan = row.plan().replace(inter_link=lookup_link("InfiniBand NDR"))
    e = evaluate(plan, max_suggestions=0)
    network = e.check("network").figures
    ratio = float(network["moe_seconds_per_step"]) / float(  # type: ignore[arg-type]
        network["compute_seconds_per_step"]  # type: ignore[arg-type]
    )
    assert 0.5 <= ratio <= 2.0, ratio
    compute = e.check("compute").figures
    assert float(compute["seconds"]) == pytest.approx(float(compute["compute_seconds"]))  # type: ignore[arg-type]
    one_f_one_b = plan.replace(model=replace(plan.model, pipeline_schedule="1f1b"))
    slower = evaluate(one_f_one_b, max_suggestions=0).check("compute").figures
    assert float(slower["seconds"]) > 1.1 * float(slower["compute_seconds"])  # type: ignore[arg-type]
    assert float(slower["pipeline_bubble"]) > 0.0  # type: ignore[arg-type]


def test_bloom_fits_its_schedule_but_not_half_of_it() -> None:
    # BLOOM (arXiv:2211.05100) §3.4.1: ~3.5 months on 384 A100 80GB; two months is not enough.
    plan = RUN_ROWS[5].plan()
    assert evaluate(plan.replace(deadline_seconds=120 * DAY)).check("compute").verdict != "fail"
    assert evaluate(plan.replace(deadline_seconds=60 * DAY)).check("compute").verdict == "fail"


def test_founding_100b_on_one_pcie_node_over_25gbe_is_infeasible_for_years() -> None:
    # The founding question (吉林GPU服务器能训练千亿模型吗): 100B, Chinchilla 2T tokens, one node
    # of 8 x A100 80GB PCIe on 25 GbE -> decades of compute, and it does not fit either.
    plan = Plan(
        task="pretrain",
        model=generic_model(params=100e9),
        gpu=lookup_gpu("A100 80GB PCIe"),
        gpus=8,
        inter_link=lookup_link("25GbE"),
    )
    e = evaluate(plan)
    assert e.verdict == "infeasible"
    assert e.check("memory").verdict == "fail"
    assert e.check("compute").figures["days"] > 3 * 365


@dataclass(frozen=True)
class ServeRow:
    """A published serving speed: tokens/s per sequence (batch 1) or in total, and tolerance."""

    name: str
    source: str
    plan: Callable[[], Plan]
    tokens_per_s: float
    total: bool = False
    tolerance: float = 0.5


SERVE_ROWS = [
    # Before issue 14 the decode step was a pure HBM roofline: 647 tok/s per sequence here.
    ServeRow(
        "DeepSeek-V3 FP8 on 8 x H20, batch 1",
        "vllm-project/vllm issue #30832: "
        "DeepSeek-V3.2, TP=8 on 8 x H20, 30 output tokens/s at one request",
        lambda: _serve("DeepSeek-V3", "H20", 8, "fp8", context=2048),
        30,
    ),
    ServeRow(
        "DeepSeek-V3 FP8 on 8 x H200, batch 1",
        "vllm-project/vllm issue #11539 "
        "(2025-01-10): SGLang bench_serving --max-concurrency 1, about 26 tokens/s",
        lambda: _serve("DeepSeek-V3", "H200", 8, "fp8", context=2048),
        26,
    ),
    ServeRow(
        "Llama-2-7B FP16 on 1 x H100, batch 1",
        "NVIDIA NeMo Framework docs, Llama-2 "
        "inference performance (TensorRT-LLM): 153.8 ms for 128 in / 20 out = ~7.3 ms "
        "per token",
        lambda: _serve("Llama-2-7B", "H100", 1, "fp16", context=148),
        137,
        tolerance=0.3,
    ),
    ServeRow(
        "Llama-2-7B FP16 on 8 x A100 80GB (TP=8), batch 1",
        "NeMo docs as above: "
        "136.5 ms for 128 in / 20 out (~6.3 ms per token): TP=8 all-reduces, not HBM",
        lambda: _serve("Llama-2-7B", "A100 80GB", 8, "fp16", context=148),
        160,
        tolerance=0.3,
    ),
    ServeRow(
        "Llama-2-70B FP8 on 8 x H100, offline",
        "MLPerf Inference v4.0 datacenter, "
        "Llama-2-70B offline, NVIDIA 8 x H100 SXM (TensorRT-LLM): 21,806 tokens/s",
        lambda: Plan(
            task="inference",
            model=_m("Llama-2-70B"),
            gpu=lookup_gpu("H100"),
            gpus=8,
            tensor_parallel=2,
            weight_dtype="fp8",
            kv_dtype="fp8",
            sequence_length=1024,
            batch_size=512,
        ),
        21_806,
        total=True,
        tolerance=0.25,
    ),
]


@pytest.mark.parametrize("row", SERVE_ROWS, ids=lambda r: r.name)
def test_serving_speed_matches_published(row: ServeRow) -> None:
    compute = run_checks(row.plan(), with_min_gpus=False)[1].figures
    key = "decode_tokens_per_s_all_replicas" if row.total else "seconds_per_token"
    value = float(compute[key]) if row.total else 1 / float(compute[key])  # type: ignore[arg-type]
    assert value == pytest.approx(row.tokens_per_s, rel=row.tolerance), row.source
