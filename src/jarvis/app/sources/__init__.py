"""External sources at the edge: fetching through the web_fetch guard, polls, notifications."""
