"""Every model family's inputs equal what its own processor and chat template give on the same frames.

For each non-Qwen family of :data:`mmjudge.judges.families.FAMILIES` (the Qwen families are checked against
qwen-vl-utils in ``test_qwen_vl_parity.py``), on a tiny random checkpoint saved with the processor at the
released checkpoint's default sizes (``tiny_families.py``) and loaded back with ``local_files_only``:

- **a clip as a video** (video families): mmjudge decodes the frames its family rule picks through the
  runner's decode step and encodes them; the reference is the processor itself given the *whole* decoded
  clip with ``do_sample_frames=True, num_frames=N`` and the clip's metadata, so the processor picks the
  frames (its own ``sample_frames``), sizes and normalises them;
- **a clip as images** (every family; ``vlm_digit``'s default and the only way for image-only families):
  the reference renders ``N`` image parts with the processor's chat template and calls the processor on the
  frames at ``torch.linspace(0, total - 1, N).round()``, at their decoded size;
- **one image** (MIST cells, ``label_choice``'s encoder): the reference is transformers' multimodal
  ``processor.apply_chat_template(..., tokenize=True, return_dict=True)`` with the PIL image in the message.

Landscape and portrait clips, odd frame counts. Token ids and every tensor must be equal (tolerance 0: the
same pixels through the same processor). Then a config that cannot work is refused before the run, and
``mmjudge eval`` runs each family on the benchmarks it is used for with no failed item.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from PIL import Image  # noqa: E402
from tiny_families import FAMILY_BUILDERS, VIDEO_FAMILIES  # noqa: E402

from mmjudge.errors import ConfigError  # noqa: E402
from mmjudge.judges import JudgeConfig, ScoreQuery, make_judge  # noqa: E402
from mmjudge.judges._chat import encode_chat  # noqa: E402
from mmjudge.judges.families import FAMILIES, family_of  # noqa: E402
from mmjudge.media.encode import write_video  # noqa: E402
from mmjudge.media.synthetic import moving_texture_clip  # noqa: E402
from mmjudge.media.video import linspace_indices, read_all  # noqa: E402
from mmjudge.runner import RunOptions, prepare_judge, run_judge  # noqa: E402
from mmjudge.runner.decode import decode_query  # noqa: E402

OTHER_FAMILIES = sorted(k for k in FAMILY_BUILDERS if family_of(k).profile is None)
CLIPS = {"landscape": (480, 832, 45, 16.0), "portrait": (832, 480, 33, 24.0)}
"""(height, width, frames, fps) of the test clips (odd lengths)."""


def test_every_family_has_a_tiny_checkpoint_here() -> None:
    from mmjudge.judges.tiny import CHECKPOINTS

    names = {f.name for f in FAMILIES}
    qwen = {f.name for f in FAMILIES if f.profile is not None}
    audio = {f.name for f in FAMILIES if f.audio_only}  # no pixels: parity in test_audio_language.py
    assert names - qwen - audio <= set(FAMILY_BUILDERS), sorted(names - qwen - audio - set(FAMILY_BUILDERS))
    assert audio == {"qwen2_audio"} and audio <= set(CHECKPOINTS)
    assert set(VIDEO_FAMILIES) == {k for k in FAMILY_BUILDERS if family_of(k).video}


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("family-clips")
    return {
        name: write_video(out / f"{name}.mp4", moving_texture_clip(t, h, w, seed=3), fps=fps)
        for name, (h, w, t, fps) in CLIPS.items()
    }


def _judge(model: Path, **config: Any) -> Any:
    judge = make_judge(JudgeConfig(judge="vlm_digit", model=str(model), local_files_only=True, dtype="float32",
                                   **config))  # fmt: skip
    judge.check_model()
    judge.load("cpu")
    return judge


def _ours(judge: Any, clip: Path) -> tuple[Any, Any]:
    query = ScoreQuery("c", clip, "a red cat walks")
    judge_input = decode_query(query, [judge.media_request(query)]).input(0)
    return judge_input, judge.encode([judge_input])


def _assert_same(ours: dict[str, Any], reference: dict[str, Any], context: object) -> None:
    assert set(reference) <= set(ours), (context, sorted(reference), sorted(ours))
    for key, expected in reference.items():
        got = ours[key]
        assert tuple(got.shape) == tuple(expected.shape), (
            context,
            key,
            tuple(got.shape),
            tuple(expected.shape),
        )
        assert torch.equal(got, expected), (context, key, float((got.float() - expected.float()).abs().max()))


def _text(judge: Any, parts: list[dict[str, Any]]) -> str:
    text = judge.template.replace("{prompt}", "a red cat walks")
    messages = [{"role": "user", "content": [*parts, {"type": "text", "text": text}]}]
    rendered: str = judge.processor.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    return rendered


@pytest.mark.parametrize("frames", [7, 5])
@pytest.mark.parametrize("family", sorted(set(VIDEO_FAMILIES) & set(OTHER_FAMILIES)))
def test_a_clip_as_video_equals_the_processors_own_sampling(
    family: str, frames: int, tiny_family: Callable[[str], Path], clips: dict[str, Path]
) -> None:
    judge = _judge(tiny_family(family), frames=frames, options={"as_video": True})
    for name, clip in clips.items():
        judge_input, ours = _ours(judge, clip)
        whole = read_all(clip)
        fps = CLIPS[name][3]
        metadata = {"total_num_frames": len(whole), "fps": fps, "duration": len(whole) / fps}
        reference = judge.processor(text=[_text(judge, [{"type": "video"}])], videos=[whole],
                                    video_metadata=[metadata], do_sample_frames=True, num_frames=frames,
                                    return_tensors="pt")  # fmt: skip
        assert (
            judge_input.frames is not None and judge_input.frames.shape[1:3] == whole.shape[1:3]
        )  # full size
        _assert_same(ours, dict(reference), (family, name, frames))


@pytest.mark.parametrize("family", OTHER_FAMILIES)
def test_a_clip_as_images_equals_the_processor_on_the_same_frames(
    family: str, tiny_family: Callable[[str], Path], clips: dict[str, Path]
) -> None:
    judge = _judge(tiny_family(family), frames=3)
    for name, clip in clips.items():
        _, ours = _ours(judge, clip)
        whole = read_all(clip)
        images = [Image.fromarray(whole[i]) for i in linspace_indices(len(whole), 3)]
        text = _text(judge, [{"type": "image"}] * len(images))
        reference = judge.processor(text=[text], images=[images], return_tensors="pt")
        _assert_same(ours, dict(reference), (family, name))


@pytest.mark.parametrize("family", OTHER_FAMILIES)
def test_one_image_equals_the_multimodal_chat_template(
    family: str, tiny_family: Callable[[str], Path], clips: dict[str, Path]
) -> None:
    judge = _judge(tiny_family(family))
    for name, clip in clips.items():
        image = Image.fromarray(read_all(clip)[0])
        ours = encode_chat(judge.processor, "Which label?", family=judge.family, images=[image])
        messages = [{"role": "user", "content": [{"type": "image", "image": image},
                                                 {"type": "text", "text": "Which label?"}]}]  # fmt: skip
        reference = judge.processor.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=True, return_dict=True, return_tensors="pt"
        )
        _assert_same(ours, dict(reference), (family, name))


# --- refused before the run ------------------------------------------------------------------------------


def test_a_model_without_a_family_is_refused_before_the_run(tiny_clip: Path) -> None:
    config = JudgeConfig(judge="vlm_digit", model=str(tiny_clip), local_files_only=True)
    with pytest.raises(ConfigError, match=r"model_type 'clip'.*Supported: Qwen2-VL.*Gemma 3.*Video-LLaVA"):
        prepare_judge("isovrbench", config)


def test_options_that_cannot_work_with_the_family_are_refused_before_the_run(
    tiny_family: Callable[[str], Path],
) -> None:
    gemma = {"model": str(tiny_family("gemma3")), "local_files_only": True}
    with pytest.raises(ConfigError, match="Gemma 3's processor takes no video"):
        prepare_judge("isovrbench", JudgeConfig(judge="vlm_digit", options={"as_video": True}, **gemma))
    with pytest.raises(ConfigError, match="Gemma 3's processor takes no video"):
        prepare_judge("emorealm", JudgeConfig(judge="label_choice", options={"frames_as": "video"}, **gemma))
    with pytest.raises(ConfigError, match="remove max_pixels"):
        prepare_judge("mist", JudgeConfig(judge="label_choice", max_pixels=200_704, **gemma))
    judge = prepare_judge("emorealm", JudgeConfig(judge="label_choice", **gemma))  # auto: images
    assert not judge.frames_as_video and judge.media_request(_clip_query()).policy == "linspace"


def _clip_query() -> Any:
    return ScoreQuery("c", Path("c.mp4"), "p")


# --- whole runs: each family on the benchmarks it is used for, nothing failed -----------------------------

RUNS = {  # benchmark -> (judge, options); MIST's images, EmoReAlM's and EmoPrefer's frames, IsoVRBench's clips
    "mist": ("label_choice", {"max_reasoning_tokens": 2}),
    "emorealm": ("label_choice", {}),
    "emoprefer": ("pairwise_describe", {"max_answer_tokens": 2}),
    "isovrbench": ("vlm_digit", {}),
}


@pytest.mark.parametrize("benchmark", sorted(RUNS))
@pytest.mark.parametrize("family", OTHER_FAMILIES)
def test_each_family_runs_each_benchmark_with_no_failed_item(
    family: str, benchmark: str, tiny_family: Callable[[str], Path], sample_data: Path, tmp_path: Path
) -> None:
    name, options = RUNS[benchmark]
    config = JudgeConfig(judge=name, model=str(tiny_family(family)), local_files_only=True, dtype="float32",
                         frames=3, batch_size=4, options=options)  # fmt: skip
    roots = {"emorealm": ("emorealm", "DFEW"), "emoprefer": ("emoprefer", "MER2025")}
    media_root = (
        sample_data / "raw" / roots[benchmark][0] / roots[benchmark][1] if benchmark in roots else None
    )
    limit = 1 if benchmark == "mist" else 2
    run = RunOptions(limit=limit, media_root=media_root, progress=False)
    result = run_judge(benchmark, config, sample_data / benchmark, tmp_path / "out", run)
    [verdicts] = result.verdicts.values()
    failed = [
        (v.item_id, v.error)
        for v in verdicts
        if v.no_judgment and v.error and "label in the reply" not in v.error
    ]
    assert verdicts and not failed, failed[:3]
    assert dataclasses.asdict(result.config)["model"] == str(tiny_family(family))


def test_the_families_doc_is_generated_from_the_families() -> None:
    from mmjudge.judges.families import families_markdown

    doc = (Path(__file__).parents[2] / "docs" / "model-families.md").read_text(encoding="utf-8")
    assert doc.endswith(families_markdown()), (
        "docs/model-families.md is out of date: replace its table with mmjudge.judges.families.families_markdown()"
    )
