"""Russian messages of ratings (``/standings``, ``/profile``), ``/history`` and ``/replay``."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ commands
    "cmd.profile.name": "профиль",
    "cmd.profile.description": "Рейтинги игрока, его последние игры и динамика рейтинга",
    "cmd.profile.user": "Чей профиль (если не указан — ваш)",
    "cmd.profile.user.name": "игрок",
    "cmd.history.name": "история",
    "cmd.history.description": "Завершённые игры этого сервера, сначала новые",
    "cmd.history.game": "Только эта игра (если не указана — все игры)",
    "cmd.history.game.name": "игра",
    "cmd.history.user": "Только игры, в которых участвовал этот игрок",
    "cmd.history.user.name": "игрок",
    "cmd.replay.name": "повтор",
    "cmd.replay.description": "Пройти завершённую игру этого сервера ход за ходом",
    "cmd.replay.game": "Номер игры, как он указан в истории",
    "cmd.replay.game.name": "игра",
    "cmd.settings.replays.name": "повторы",
    "cmd.settings.replays.description": "Показывать ли в повторах завершённых игр руки игроков",
    "cmd.settings.replays.hands": "Показывать руки всех игроков в повторах (и разрешить экспорт)",
    "cmd.settings.replays.hands.name": "руки",
    "settings.replays.on": (
        "Готово: повторы завершённых игр показывают руки всех игроков, и игры можно экспортировать."
    ),
    "settings.replays.off": (
        "Готово: повторы показывают только открытый стол, а экспорт игр отключён (по зерну "
        "из экспорта можно заново раздать любую руку)."
    ),
    # ------------------------------------------------------------------ ratings
    "ratings.line": {
        "one": "{rank}. {user}: **{rating}**, {count} игра, {wins}",
        "few": "{rank}. {user}: **{rating}**, {count} игры, {wins}",
        "many": "{rank}. {user}: **{rating}**, {count} игр, {wins}",
        "other": "{rank}. {user}: **{rating}**, {count} игры, {wins}",
    },
    "ratings.ai_player": "🤖 ИИ ({level})",
    "ratings.footer": "Рейтинг: μ − 3σ, осторожная оценка мастерства, растущая с каждой игрой",
    "ratings.page": "Страница {page} из {pages}",
    "ratings.empty": "На этом сервере ещё нет игр с рейтингом.",
    "profile.title": "{name}: рейтинги на этом сервере",
    "profile.game": {
        "one": "**{rating}** (μ {mu}, σ {sigma}), место {rank} из {players}; {count} игра, {wins}",
        "few": "**{rating}** (μ {mu}, σ {sigma}), место {rank} из {players}; {count} игры, {wins}",
        "many": "**{rating}** (μ {mu}, σ {sigma}), место {rank} из {players}; {count} игр, {wins}",
        "other": (
            "**{rating}** (μ {mu}, σ {sigma}), место {rank} из {players}; {count} игры, {wins}"
        ),
    },
    "profile.trend": {
        "one": "Динамика за последнюю {count} игру: {chart}",
        "few": "Динамика за последние {count} игры: {chart}",
        "many": "Динамика за последние {count} игр: {chart}",
        "other": "Динамика за последние {count} игры: {chart}",
    },
    "profile.recent": "Последние игры",
    "profile.no_ratings": "На этом сервере ещё нет игр с рейтингом.",
    # ------------------------------------------------------------------ python -m bot.ratings
    "ratings.cli.description": "Пересчитать все рейтинги по сохранённым результатам игр.",
    "ratings.cli.command": "recompute: пересчитать рейтинги в одной транзакции",
    "ratings.cli.check": "пересчитать, сравнить с сохранёнными и ничего не менять",
    "ratings.cli.url": "база данных (по умолчанию DATABASE_URL из окружения или .env)",
    "ratings.cli.rebuilt": {
        "one": "Заново оценена {count} игра.",
        "few": "Заново оценены {count} игры.",
        "many": "Заново оценено {count} игр.",
        "other": "Заново оценены {count} игры.",
    },
    "ratings.cli.checked": {
        "one": "Для сравнения заново оценена {count} игра (ничего не сохранено).",
        "few": "Для сравнения заново оценены {count} игры (ничего не сохранено).",
        "many": "Для сравнения заново оценено {count} игр (ничего не сохранено).",
        "other": "Для сравнения заново оценены {count} игры (ничего не сохранено).",
    },
    "ratings.cli.same": "Сохранённые рейтинги в точности совпали с результатами.",
    "ratings.cli.different": "Сохранённые рейтинги расходились с результатами.",
    # ------------------------------------------------------------------ history
    "history.title": "Завершённые игры: {scope}",
    "history.of_player": "{scope}, с участием {name}",
    "history.line": "**#{id}** {game}, {date}: {players}. {result}; {length}",
    "history.won_by": {
        "one": "Победитель: {names}",
        "few": "Победители: {names}",
        "many": "Победители: {names}",
        "other": "Победители: {names}",
    },
    "history.abandoned": "Прервана",
    "history.moves": {
        "one": "{count} ход",
        "few": "{count} хода",
        "many": "{count} ходов",
        "other": "{count} хода",
    },
    "history.minutes": {
        "one": "{moves} за {count} минуту",
        "few": "{moves} за {count} минуты",
        "many": "{moves} за {count} минут",
        "other": "{moves} за {count} минуты",
    },
    "history.empty": "Завершённых игр нет.",
    "history.footer": "Посмотреть снова: {cmd_replay} и номер игры",
    # ------------------------------------------------------------------ replays
    "replay.title": "Повтор: {game}, игра #{id}",
    "replay.footer": "Ход {move} из {moves}, раунд {round}",
    "replay.setup": "Раздача",
    "replay.hand_of": "Рука: {name}",
    "replay.log": "Этот ход",
    "replay.button.previous_round": "Раунд назад",
    "replay.button.next_round": "Следующий раунд",
    "replay.button.export": "Экспорт (JSON)",
    "replay.not_here": "На этом сервере не было игры с таким номером.",
    "replay.running": "Эта игра ещё идёт; повтор откроется, когда она закончится.",
    "replay.never_started": "Эта игра так и не началась, повторять нечего.",
    "replay.unknown_game": "Эту игру бот больше не может повторить.",
    "replay.rules_changed": (
        "Игра #{id} сыграна по прежним правилам: начиная с хода {move} она уже не "
        "повторяется так, как была сыграна, поэтому её позиции не показываются. Экспорт "
        "по-прежнему содержит игру в том виде, в каком она сохранена."
    ),
    "replay.export_ready": "Игра #{id} в формате JSON: зерно, настройки, игроки и все ходы.",
    "replay.export_hidden": (
        "На этом сервере руки в повторах скрыты, а экспорт раскрыл бы их (по его зерну "
        "можно заново раздать любую руку). Управляющие сервером могут изменить это через "
        "{cmd_settings}."
    ),
    "replay.footer_no_rounds": "Ход {move} из {moves}",
}
