"""Playtesting studies: a tournament played over a grid of rule values and map edits (the
cells), every cell on the same deals, stored and resumable; a report of what each change does
to every entrant and to the game's balance; a search for the most balanced rules.

    study = load_study("configs/study/longest-bonus.yaml")
    run_study(study)
    study_report(study.output).write()
"""

from ttr_lab.studies.config import StudyConfig, load_study, parse_study
from ttr_lab.studies.report import StudyReport, load_study_results, study_report
from ttr_lab.studies.runner import StudyRun, run_study

__all__ = ["StudyConfig", "StudyReport", "StudyRun", "load_study", "load_study_results", "parse_study", "run_study",
           "study_report"]
