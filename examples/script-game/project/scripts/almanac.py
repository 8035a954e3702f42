# The game's almanac, in Python: counts days and seasons on the simulated
# clock, keeps a seeded weather forecast, and on rainy days waters the
# garden's plants (the game's kinds, from the module playfield).
import random
from playfield import game
from modules.seasons import season_of

DAY_MS = 1000


def init():
    return {"day": 0, "season": season_of(0), "rainy_days": 0, "forecast": []}


def on_load(self, reloaded):
    set_interval(lambda: new_day(self), DAY_MS)


def new_day(self):
    day = self.state["day"] + 1
    rain = random.random() < 0.3
    self.state["day"] = day
    self.state["season"] = season_of(day)
    if rain:
        self.state["rainy_days"] += 1
        for plant in game.find("Plant"):
            plant.water = min(1.0, plant.water + 0.2)
    self.state["garden_day"] = game.find("Garden")[0].day
    self.state["forecast"] = (self.state["forecast"] + ["rain" if rain else "sun"])[-7:]


def on_frost(self, data):
    self.state["frost_on_day"] = self.state["day"]
