"""Focus tasks (seed 004): long work in `~/.jarvis/focus/<task_id>/` that survives crashes.

`state` holds the pure judgement (statuses, transitions, plan validation, the next step),
`urls` the URL normaliser references are de-duplicated by, `store` the files.
"""
