"""Unattended work on the durable engine: schedules, goal turns, AGENDA reminders."""
