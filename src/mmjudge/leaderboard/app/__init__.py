"""What a visitor meets: the gradio UI and its tabs, the login and the route gate, the Space's build and
start-up, and the Hub mirror. The only layer that imports gradio."""
