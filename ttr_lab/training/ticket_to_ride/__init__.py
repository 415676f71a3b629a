"""Training Ticket to Ride's ``learned`` network (``ttr-lab train``): what the generic loop of
``ttr_lab.training`` asks of the game (``games.GameTraining``). Imitation of the compiled planner
on the batched env (``imitation.py``), expert iteration with the searches (``expert.py``), judging
against the batched env's compiled opponents (``judge.py``), the config's checks (``checks.py``);
and ``masked_ppo.py``, PPO of a linear policy on the batched env (its own command)."""

from ttr_lab.training.games import GameTraining
from ttr_lab.training.ticket_to_ride import checks, expert, imitation, judge

TRAINING = GameTraining(check=checks.check, initial_network=imitation.initial_network, collect=imitation.collect,
                        searched=expert.collect, played_games=expert.played_games, judge=judge.judge,
                        opponent_names=judge.OPPONENT_NAMES)
