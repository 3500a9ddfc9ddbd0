"""A question that names no GPU, answered on typical set-ups: the smallest that works.

"Can I pretrain a 7B model in 30 days?" or "训练一个7B模型需要几张卡" name no hardware: the
advisor tries the usual set-ups in turn (calculators' reference configurations) and answers on
the first that works, listing what it tried. A quantity asked (memory, how many, how long, how
much) is an estimate on that set-up, never a verdict on a card the user did not choose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from assistant.calculate.focus import main_ask
from assistant.calculate.purchase import purchase_outcome
from assistant.calculate.summaries import describe_setup
from assistant.i18n import text
from assistant.records import Language, Query, Scenario
from calculators.errors import CalculatorInputError
from calculators.messages import Msg

if TYPE_CHECKING:
    from assistant.calculate.outcome import Outcome

__all__ = ["typical_outcome"]


def typical_outcome(
    query: Query,
    setups: Sequence[tuple[str, int | None, int | None]],
    run: Callable[[Scenario], Outcome],
    *,
    judged: bool,
) -> Outcome:
    """The answer on the first of `setups` that works (`run` evaluates one), with the set-ups
    tried listed; `judged` False (a quantity asked) makes it an estimate, verdict "unknown"."""
    lang = query.language
    pairs = _try_setups(query, setups, run)
    results = [r for _, r in pairs]
    chosen = next(
        (r for r in results if _works(r)),
        next((r for r in results if r.verdict == "conditional"), results[-1]),
    )
    counted = query.scenario.gpu_count is not None or query.scenario.nodes is not None
    if chosen is results[-1] and not _works(chosen) and not counted:
        chosen = _at_count(query, pairs[-1][0], chosen, run)  # "how many": the count it needs
    if not judged and not counted:
        chosen = _memory_at_fewest(query, pairs, chosen, run)
    tried = tuple(
        Msg("answer.typical_tried", setup=describe_setup(r.scenario, lang), verdict=_tried(r))
        for r in results
        if r.scenario
    )
    listed = (
        Msg("answer.typical_setups", lead=chosen.lead, tried=tried)
        if judged
        else Msg("answer.typical_reference", lead=chosen.lead.strip(), setup=_setup(chosen, lang))
    )
    # strip: with no lead of its own ("" unjudged) the reference note starts the text, and a
    # leading space would become a double one after the focus sentence
    lead = text(listed, lang).strip() if chosen.scenario else chosen.lead
    note = text(Msg("answer.typical_note"), lang)
    # A quantity asked with no hardware named: the figure is the answer, and no verdict is
    # decided on a card the user never chose (the set-ups tried are listed as assumed).
    verdict = chosen.verdict if judged else "unknown"
    answered = replace(chosen, verdict=verdict, lead=lead, assumptions=(note, *chosen.assumptions))
    return purchase_outcome(query, answered, _works, run) if judged else answered


def _try_setups(
    query: Query,
    setups: Sequence[tuple[str, int | None, int | None]],
    run: Callable[[Scenario], Outcome],
) -> list[tuple[Scenario, Outcome]]:
    """The question on each set-up in turn, up to the first that works. A set-up that cannot
    run what the question states (fp8 on an A100 the advisor picked itself) is skipped, never
    reported as the user's input error; only when none can is the last refusal raised."""
    s = query.scenario
    counted = s.gpu_count is not None or s.nodes is not None
    results: list[tuple[Scenario, Outcome]] = []
    refused: CalculatorInputError | None = None
    for gpu, nodes, per_node in setups:
        scenario = replace(
            s,
            gpu=gpu,
            nodes=nodes,
            gpus_per_node=per_node,
            gpu_count=s.gpu_count if counted else None,
        )
        try:
            results.append((scenario, run(scenario)))
        except CalculatorInputError as exc:
            refused = exc
            continue
        if _works(results[-1][1]):
            break  # larger set-ups are not needed
    if not results and refused is not None:
        raise refused
    return results


def _at_count(
    query: Query, scenario: Scenario, outcome: Outcome, run: Callable[[Scenario], Outcome]
) -> Outcome:
    """ "How many GPUs" that the last set-up does not fit: that set-up evaluated again at the
    count it needs (`sizing.sized`, as for a named card), so the count said first is the count
    the figures are for, not one read off a set-up of another size whose figures follow it."""
    if main_ask(query) != "gpu_count":
        return outcome
    from assistant.calculate.interactive import fewest_layout
    from assistant.calculate.sizing import sized

    def evaluate(count: int, note: str) -> Outcome:
        found = run(replace(fewest_layout(scenario, count), nodes=None))
        return replace(found, assumptions=(note, *found.assumptions)) if note else found

    return sized(query, outcome, evaluate)


def _memory_at_fewest(
    query: Query,
    pairs: Sequence[tuple[Scenario, Outcome]],
    outcome: Outcome,
    run: Callable[[Scenario], Outcome],
) -> Outcome:
    """A training memory estimate with no hardware named ("LoRA微调Llama-3-8B要多少显存"): the
    reference set-up at the fewest of its GPUs that hold the run (`sizing.at_fewest_fitting`,
    as for a named card), so the per-GPU figure is not that of eight GPUs each holding a whole
    copy of the model states, said as if they were split."""
    from assistant.calculate.interactive import fewest_layout
    from assistant.calculate.sizing import at_fewest_fitting
    from assistant.calculate.verdict import on_memory

    scenario = next((s for s, r in pairs if r is outcome), None)
    training = outcome.scenario is not None and outcome.scenario.task != "inference"
    if scenario is None or not training or not on_memory(main_ask(query), query.scenario):
        return outcome

    def evaluate(count: int, note: str) -> Outcome:
        found = run(replace(fewest_layout(scenario, count), nodes=None))
        return replace(found, assumptions=(note, *found.assumptions)) if note else found

    return at_fewest_fitting(query, outcome, evaluate)


def _works(outcome: Outcome) -> bool:
    """Feasible, or a working run whose money waits for a price (an estimate with figures)."""
    return outcome.verdict == "feasible" or (outcome.verdict == "unknown" and bool(outcome.checks))


def _tried(outcome: Outcome) -> Msg:
    """How a set-up tried fared: its verdict, or "works; the cost waits for a price" for a run
    whose only open check is the money (its verdict "unknown" would read "cannot tell" beside
    a lead that evaluates that very set-up)."""
    if outcome.verdict == "unknown" and _works(outcome):
        return Msg("answer.typical_works_unpriced")
    return Msg(f"common.verdict.{outcome.verdict}")


def _setup(outcome: Outcome, lang: Language) -> str:
    return describe_setup(outcome.scenario, lang) if outcome.scenario else ""
