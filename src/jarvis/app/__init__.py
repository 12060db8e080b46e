"""App: settings, the shared assembly, agent profiles and session builders."""
