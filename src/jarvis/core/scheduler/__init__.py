"""Unattended work: schedules, goals and AGENDA reminders (seed 000 "에이전트의 경계", seed 002).

Pure judgement lives here (when is a run due, which missed runs start, when does a reminder
fire, is a goal out of budget, is an owner's pre-approval still valid); the durable engine
(DBOS) and the stores are wired in `jarvis.app.unattended`.
"""
