"""Media I/O: video decoding and encoding, audio and images.

Submodules import PyAV / decord lazily; importing :mod:`mmjudge.media` is cheap.
"""
