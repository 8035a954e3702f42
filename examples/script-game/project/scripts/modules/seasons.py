SEASONS = ["spring", "summer", "autumn", "winter"]


def season_of(day):
    return SEASONS[(day // 30) % 4]
