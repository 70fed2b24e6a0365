"""The model-request worker: claims a queued request, runs ``mmjudge eval`` on it (one process, or ``accelerate
launch`` over the machine's GPUs) and stores the scored row through the core service."""
