"""A small Gradio app for an evaluate module folder (``metrics/<id>/app.py`` calls :func:`build_demo`).

evaluate 0.4.6's ``launch_gradio_widget`` does not run on gradio 6, so each metric Space uses this
instead: paste or upload the ``compute`` keyword arguments as JSON, see the scores. The app only calls
``metric.compute``; all scoring is the core's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mmjudge.errors import MmjudgeError, SchemaError
from mmjudge.metric_inputs import metric_script


def input_template(features: Mapping[str, Any] | list[Mapping[str, Any]], optional: Iterable[str] = ()) -> str:
    """A JSON skeleton with one empty list per input feature of the metric (``null`` for the ``optional``
    ones, which ``null`` leaves out).

    A metric that accepts several input formats has a list of feature sets; the first one is shown.

    >>> print(input_template({"predictions": None, "references": None}))
    {
      "predictions": [],
      "references": []
    }
    >>> print(input_template([{"labels": None}, {"scores": None}]))
    {
      "labels": []
    }
    >>> print(input_template({"predictions": None, "ids": None}, optional=["ids"]))
    {
      "predictions": [],
      "ids": null
    }
    """
    first = features[0] if isinstance(features, list) else features
    left_out = set(optional)
    return json.dumps({name: None if name in left_out else [] for name in first}, indent=2)


def parse_inputs(text: str) -> dict[str, Any]:
    """Parse the pasted JSON object of ``compute`` keyword arguments.

    >>> parse_inputs('{"predictions": ["a1"], "references": ["a2"]}')
    {'predictions': ['a1'], 'references': ['a2']}
    >>> parse_inputs("[1, 2]")
    Traceback (most recent call last):
    ...
    mmjudge.errors.SchemaError: expected a JSON object mapping argument names to lists, got list
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SchemaError(
            f"the input is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from exc
    if not isinstance(value, dict):
        raise SchemaError(
            f"expected a JSON object mapping argument names to lists, got {type(value).__name__}"
        )
    return value


def compute_from_text(metric: Any, text: str) -> dict[str, Any]:
    """Run ``metric.compute`` on the JSON text; errors come back as ``{"error": message}``."""
    try:
        return dict(metric.compute(**parse_inputs(text)))
    except (MmjudgeError, ValueError, TypeError) as exc:
        return {"error": str(exc)}


def build_demo(folder: str | Path) -> Any:
    """Build the Gradio Blocks app for the evaluate module in ``folder``.

    The script is loaded by its path (:func:`~mmjudge.metric_inputs.metric_script`), not by the folder's name:
    a Space runs from a folder called ``app``, where ``evaluate.load(folder)`` would load this app instead.
    """
    import evaluate
    import gradio as gr

    folder = Path(folder)
    metric = evaluate.load(str(metric_script(folder)))
    card = folder / "README.md"
    with gr.Blocks(title=f"mmjudge metric: {metric.name}") as demo:
        gr.Markdown(f"# `{metric.name}`\n{metric.description}")
        text = gr.Code(
            value=input_template(metric.features, getattr(metric, "optional_columns", ())),
            language="json",
            label="compute(**kwargs) as JSON",
        )
        upload = gr.File(label="or upload a JSON file", file_types=[".json"])
        button = gr.Button("Compute", variant="primary")
        result = gr.JSON(label="scores")
        upload.upload(lambda f: Path(f).read_text(encoding="utf-8"), upload, text, api_visibility="private")
        button.click(lambda t: compute_from_text(metric, t), text, result, api_name="compute")
        if card.exists():
            with gr.Accordion("Metric card", open=False):
                gr.Markdown(_strip_front_matter(card.read_text(encoding="utf-8")))
    return demo


def _strip_front_matter(text: str) -> str:
    if text.startswith("---"):
        end = text.find("\n---", 3)
        if end != -1:
            return text[end + 4 :]
    return text
