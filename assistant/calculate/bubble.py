"""The pipeline bubble asked ("PP8、64个微批次，bubble占多少", "how big is the pipeline bubble"):
the idle share of a pipeline step, (p − 1)/(m + p − 1) for 1F1B (Narayanan et al. 2021
§2.2.1), DualPipe's where the plan runs it (DeepSeek-V3 §3.2.1).

Of a job, the figure is the compute check's (`schedule_bubble`, at the plan's micro-batches,
stated or derived from the global batch); with no job, only the stages and micro-batches the
question states, as an estimate.

Examples:
    >>> from assistant.parse import parse
    >>> found = bubble_outcome(parse("PP=4, 32 micro-batches: what fraction is pipeline bubble?"))
    >>> found.lead.split(":")[0]
    'The pipeline bubble is 8.6% of each step'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from assistant.calculate.focus import figure
from assistant.i18n import join_sentences, text
from assistant.parse.interleaving import read_interleaving
from assistant.records import Check, Query, Scenario
from calculators.compute_time import interleaved_bubble_fraction, pipeline_bubble_fraction
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["bubble_answer", "bubble_outcome"]

_SOURCE = "Narayanan et al. 2021 (arXiv:2104.04473) §2.2.1: 1F1B bubble (p − 1)/(m + p − 1)"
_INTERLEAVED_SOURCE = (
    "Narayanan et al. 2021 (arXiv:2104.04473) §2.2.2: interleaved bubble (p − 1)/(v·m + p − 1)"
)


def bubble_answer(checks: tuple[Check, ...], scenario: Scenario) -> Msg | None:
    """The bubble of the training plan evaluated, at its stages and micro-batches."""
    bubble = figure(checks, "compute", "schedule_bubble")
    micro = figure(checks, "compute", "pipeline_microbatches")
    stages = next((c.inputs.get("pipeline_parallel") for c in checks if c.kind == "compute"), None)
    if scenario.task == "inference" or bubble is None or not isinstance(stages, int):
        return None
    if stages <= 1:
        return Msg("answer.bubble_none")
    dualpipe = any(
        c.kind == "compute" and c.figures.get("pipeline_schedule") == "dualpipe" for c in checks
    )
    key = "answer.bubble_dualpipe" if dualpipe else "answer.bubble"
    if scenario.pipeline_microbatches is None:
        key += "_assumed"  # the micro-batches follow from the global batch, said as such
    return Msg(key, bubble=bubble, stages=stages, micro_batches=int(micro or 1))


def bubble_outcome(query: Query) -> Outcome | None:
    """The bubble of the stages and micro-batches stated, with no job: None unless the question
    asks for the bubble and states both. The interleaved schedule with its virtual stages per
    GPU stated ("2 virtual stages per GPU", "每卡4个虚拟阶段") divides the bubble time by them
    (Narayanan et al. 2021 §2.2.2); named without them, the 1F1B figure is said as such."""
    from assistant.calculate.outcome import Outcome

    s = query.scenario
    if "bubble" not in query.asks or s.model or s.params:
        return None
    stages, micro = s.pipeline_parallel, s.pipeline_microbatches
    if stages is None or stages <= 1 or micro is None:
        return None
    interleaved, chunks = read_interleaving(query.question)
    bubble, msg, formula, inputs = _stated(stages, micro, chunks)
    said = text(msg, query.language)
    check = Check(
        kind="compute",
        verdict="ok",
        summary=said,
        figures={"schedule_bubble": bubble, "pipeline_microbatches": micro},
        formula=text(Msg(formula), query.language),
        inputs=inputs,
        sources=(_INTERLEAVED_SOURCE if chunks and chunks > 1 else _SOURCE,),
    )
    if interleaved and not chunks:  # "interleaved" without v: the 1F1B figure, said so
        said = join_sentences(
            (said, text(Msg("answer.bubble_interleaved_unstated"), query.language)),
            query.language,
        )
    return Outcome(verdict="unknown", lead=said, scenario=s, checks=(check,), focus=said)


def _stated(stages: int, micro: int, chunks: int | None) -> tuple[float, Msg, str, dict[str, int]]:
    """The stated pipeline's bubble, its sentence, its formula key and the check's inputs."""
    inputs = {"pipeline_parallel": stages, "pp_microbatches": micro}
    plain = pipeline_bubble_fraction(pipeline_parallel=stages, micro_batches=micro)
    if not chunks or chunks <= 1:
        msg = Msg(
            "answer.bubble_stated",
            bubble=plain,
            idle=stages - 1,
            slots=micro + stages - 1,
            ideal=(stages - 1) / micro,
            stages=stages,
            micro_batches=micro,
        )
        return plain, msg, "formula.bubble", inputs
    bubble = interleaved_bubble_fraction(
        pipeline_parallel=stages, micro_batches=micro, virtual_stages=chunks
    )
    msg = Msg(
        "answer.bubble_interleaved",
        bubble=bubble,
        idle=stages - 1,
        slots=chunks * micro + stages - 1,
        stages=stages,
        chunks=chunks,
        micro_batches=micro,
        plain=plain,
    )
    return bubble, msg, "formula.bubble_interleaved", {**inputs, "virtual_stages": chunks}
