"""Message catalog parts, one module per feature (`MESSAGES: dict[key, {"ko": …, "en": …}]`).

`jarvis.common.i18n` merges every module of this package at import, so a feature adds its lines
by adding a module here; a key defined twice is an error at start-up.
"""
