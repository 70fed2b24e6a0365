from pathlib import Path

from mmjudge.metric_app import build_demo

demo = build_demo(Path(__file__).parent)

if __name__ == "__main__":
    demo.launch()
