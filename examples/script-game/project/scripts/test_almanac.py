# The game's own Python script tests, run by editor.scripts.check inside the sandbox.
from modules.seasons import season_of
from playfield import game


def test_seasons_turn_every_thirty_days():
    assert [season_of(d) for d in (0, 29, 30, 90, 120)] == ["spring", "spring", "summer", "winter", "spring"]


async def test_a_watered_plant_grows():
    plant = game.spawn("Plant", species="bean", water=1.0)
    await wait(2000)
    assert plant.growth > 0, plant.growth
