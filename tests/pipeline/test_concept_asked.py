"""The sentence quoted for one part says what that part asks (issue 10, concept5).

A value part ("…and what's a realistic value for H100 training?") once got a price ratio that
only shared "H100", and a "why" part got a sentence that restated the question ("… it shows why
bandwidth, not TFLOPS, decides …") or a side remark, though the passages held the range and the
reason. Small hand-made passages pin each rule: a value part reads the first part's subject and
prefers a figure of it (a range for "typical"), a "why" part prefers a reason about its subject
and never quotes a sentence that only points at a reason; both languages.
"""

from __future__ import annotations

import pytest

from assistant.compose.asked import asks_definition, figure_near, gives_reason, points_at_reason
from assistant.compose.best_sentence import best_sentence
from assistant.compose.parts import Part, question_parts
from assistant.records import Passage


def _passage(text: str, number: int = 1, lang: str = "en") -> Passage:
    return Passage(
        id=f"p{number}", doc_id="doc", source="", title="", heading="", text=text, lang=lang
    )


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Decode is bandwidth bound because each token reads every weight.", True),
        ("Each token stores a key and a value, so the cache grows with the context.", True),
        ("KV 缓存之所以占显存，是因为每个 token 都要保存键和值。", True),
        ("每个 token 都保存键和值，所以缓存随上下文增长。", True),
        # "so much" is a degree, not a consequence
        ("The cache takes so much memory on long prompts.", False),
        # pointing at a reason given elsewhere is not a reason
        ("The ranking holds, so it shows why bandwidth decides chat speed.", False),
        ("这就是两张卡很紧的原因，所以要四张。", False),
    ],
)
def test_a_reason_is_a_cause_or_consequence_stated(sentence: str, expected: bool) -> None:
    assert gives_reason(sentence) is expected


def test_a_sentence_that_points_at_the_why_is_told_apart() -> None:
    assert points_at_reason("It explains why decode is slow.")
    assert points_at_reason("这说明了为什么解码慢。")
    assert not points_at_reason("Decode is slow because it reads all weights.")


@pytest.mark.parametrize(
    ("sentence", "terms", "expected"),
    [
        ("Large runs reach about 38–55 % MFU in BF16.", {"mfu"}, True),
        ("大规模训练的 MFU 通常在 38–55%。", {"mfu"}, True),
        ("The 2023 average PUE of 1.58 is an upper bound.", {"pue"}, True),
        # the figure is a price ratio, far from the term it should measure
        (
            "At equal MFU the H100 is cheaper whenever its hourly price is below 3.2 times.",
            {"mfu"},
            False,
        ),
        # a year and a section number are not figures
        ("MFU was defined by PaLM (Chowdhery et al. 2022, §2.1).", {"mfu"}, False),
    ],
)
def test_a_figure_of_the_term(sentence: str, terms: set[str], expected: bool) -> None:
    assert figure_near(sentence, frozenset(terms)) is expected


@pytest.mark.parametrize(
    ("question", "inherited"),
    [
        # only a GPU is named: the value is of what the first part names
        ("What does MFU mean and what's a realistic value for H100 training?", ("MFU",)),
        ("什么是 MFU，H100 上一般能到多少？", ("MFU",)),
        # a technique named in the later part is its own subject
        ("KV cache 为什么会占那么多显存？GQA 能省多少", ()),
    ],
)
def test_a_value_part_names_what_it_measures(question: str, inherited: tuple[str, ...]) -> None:
    assert question_parts(question)[-1].inherited == inherited


def test_a_realistic_value_is_not_a_definition_question() -> None:
    assert not asks_definition(
        Part("what's a realistic value for H100", "MFU what's a realistic value")
    )
    assert asks_definition(Part("what's MFU", "what's MFU"))


def test_a_value_part_quotes_the_range_of_its_subject_not_a_ratio_beside_it() -> None:
    part = question_parts("What is MFU and what's a realistic value for H100 training?")[1]
    passages = [
        _passage(
            "H100 SXM versus A100: at equal MFU the H100 is cheaper for training whenever "
            "its hourly price is below 3.2 times the A100's.",
            1,
        ),
        _passage("Large training runs reach about 38–55 % MFU, 38–43 % on 16K H100.", 2),
    ]
    found = best_sentence(part, passages, set())
    assert found is not None
    assert found[0].startswith("Large training runs")


@pytest.mark.parametrize(
    ("question", "reason", "other"),
    [
        (
            "why does the KV cache get bigger when the context is longer?",
            "The KV cache takes so much memory because a key and a value are kept for every token.",
            "Practical consequences: more memory for KV cache means a bigger batch, and long "
            "prompts should be scheduled apart.",
        ),
        (
            "为什么 KV 缓存会随上下文变大？",
            "KV 缓存之所以随上下文变大，是因为每个 token 都要在每一层保存一份键和值。",
            "KV 缓存变大以后，上下文更长的请求应该单独调度。",
        ),
    ],
)
def test_a_why_part_quotes_the_reason(question: str, reason: str, other: str) -> None:
    lang = "zh" if "缓存" in question else "en"
    part = Part(question, question)
    found = best_sentence(part, [_passage(other, 1, lang), _passage(reason, 2, lang)], set())
    assert found is not None
    assert found[0] == reason


def test_a_why_part_never_quotes_a_sentence_that_restates_it() -> None:
    question = "Why is single-user chat speed decided by memory bandwidth rather than TFLOPS?"
    echo = (
        "The ranking holds, and it shows why memory bandwidth, not TFLOPS, decides "
        "single-user chat speed."
    )
    reason = "Decode is memory-bandwidth bound because every token reads all the weights."
    found = best_sentence(Part(question, question), [_passage(echo, 1), _passage(reason, 2)], set())
    assert found is not None
    assert found[0] == reason


def test_a_reason_about_something_else_does_not_beat_the_subjects_mechanism() -> None:
    question = "为什么 GQA 能让 KV 缓存变小？"
    mechanism = "GQA 让多个查询头共享一个 KV 头，64 个查询头、8 个 KV 头时 KV 缓存小 8 倍。"
    aside = "KV 缓存之所以这么占显存，是因为每一层、每个 token 都要保存键和值。"
    passages = [_passage(aside, 1, "zh"), _passage(mechanism, 2, "zh")]
    found = best_sentence(Part(question, question), passages, set())
    assert found is not None
    assert found[0] == mechanism


@pytest.mark.parametrize(
    ("sentence", "bonus"),
    [
        # a reason whose subject is what the part asks about
        ("Pipeline parallelism idles because the first stages wait for the last.", 1.5),
        # a cause of something beside it counts a little; a consequence beside it answers
        # another "why" and counts against it
        ("Between stages only activations travel because the layers are cut whole.", 0.5),
        ("Between stages only activations travel, so slow links are tolerated.", -1.0),
        # the subject is read from the prose, not from inline code
        ("vLLM's `pipeline_parallel_size` splits layers, so stages can span nodes.", -1.0),
    ],
)
def test_the_reason_bonus_follows_the_subject(sentence: str, bonus: float) -> None:
    from assistant.compose.asked import asked_bonus

    question = "Why does pipeline parallelism have a bubble?"
    assert asked_bonus(Part(question, question), sentence, (), frozenset()) == bonus


def test_a_kind_word_before_the_subject_is_not_the_subject() -> None:
    # "why is LLM decode …" asks about decode: a reason opening with decode is the answer
    from assistant.compose.asked import asked_bonus

    question = "why is LLM decode speed bound by memory bandwidth rather than FLOPs?"
    reason = "Decode is memory-bandwidth bound because every token reads all the weights."
    assert asked_bonus(Part(question, question), reason, (), frozenset()) == 1.5


def test_a_part_already_answered_by_an_earlier_quote_adds_nothing() -> None:
    from assistant.compose.concept import _answered

    parts = question_parts("What is GQA and how much smaller does it make the KV cache?")
    answer = (
        "GQA shares each KV head among several query heads; with 64 query heads and 8 KV "
        "heads the KV cache is 8 times smaller."
    )
    aside = "vLLM prints the number of KV-cache blocks it could allocate at start-up."
    pool = [_passage(answer, 1), _passage(aside, 2)]
    assert _answered(parts[1], pool, {answer})
    # nothing quoted yet, or another sentence quoted: the part still gets its own answer
    assert not _answered(parts[1], pool, set())
    assert not _answered(parts[1], pool, {aside})


def test_a_definition_quoted_first_does_not_answer_a_value_part() -> None:
    from assistant.compose.concept import _answered

    part = question_parts("MFU 是什么？大规模训练一般能到多少？")[1]
    definition = "MFU（模型 FLOPs 利用率）是训练实际花在模型运算上的算力占峰值的比例。"
    pool = [_passage(definition, 1, "zh"), _passage("训练通常需要数周。", 2, "zh")]
    assert not _answered(part, pool, {definition})
