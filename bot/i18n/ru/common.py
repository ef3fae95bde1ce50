"""Russian messages shared by all games: commands, lobby, table, hand, errors, standings.

Addresses the player as "ты" (several people as "вы"); sentences about other players avoid the
past tense, which would need their grammatical gender. Messages that name a slash command or a
button use the reference placeholders ``{cmd_…}``/``{button_…}``, which ``t`` fills with the
Russian names (``/играть``, the one Discord shows to a Russian client, and ``button.*``).
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ command line
    "cli.description": "Запуск Discord-бота Glory.",
    "cli.sync": "то же, что команда sync (её прежнее написание)",
    "cli.version": "показать версию Glory и выйти",
    "cli.env_file": "читать настройки из этого файла (по умолчанию .env в текущем каталоге)",
    "cli.settings": (
        "настройки: переменные окружения или строки NAME=значение в файле .env (окружение важнее)"
    ),
    "cli.default": "по умолчанию: {value}",
    "cli.setting.DISCORD_TOKEN": "токен бота с портала разработчиков Discord (обязателен)",
    "cli.setting.DATABASE_URL": (
        "где хранятся игры: файл SQLite (один процесс бота) или PostgreSQL в виде "
        "postgresql+asyncpg://пользователь:пароль@хост/база (один или несколько процессов)"
    ),
    "cli.setting.DEV_GUILD_ID": (
        "регистрировать слэш-команды только на этом сервере (для разработки)"
    ),
    "cli.setting.LOG_LEVEL": "DEBUG, INFO, WARNING, ERROR или CRITICAL",
    "cli.setting.LOBBY_MINUTES": "через сколько минут закрывается лобби, которое никто не начал",
    "cli.setting.AI_WORKERS": "рабочие процессы для поиска ходов ИИ-игроков и для подсказок",
    "cli.setting.AI_PAUSE_SECONDS": "сколько секунд ИИ-игрок как бы думает, прежде чем пойти",
    "cli.setting.AI_MAX_MS": "предел времени одного поиска ИИ, в миллисекундах",
    "cli.setting.MISSED_TURNS_FOR_TAKEOVER": (
        "сколько ходов подряд игрок может пропустить по времени, прежде чем ИИ оставит его место "
        "за собой"
    ),
    "cli.setting.HEALTH_FILE": (
        "файл, который бот обновляет каждые 20 секунд, пока подключён к Discord (для проверки "
        "состояния: python -m bot.health); off — без файла"
    ),
    "cli.setting.SHARD_COUNT": (
        "разделить подключение к шлюзу на столько шардов (число или auto — по рекомендации "
        "Discord); не задано: одно подключение без шардов"
    ),
    "cli.setting.SHARD_IDS": (
        "шарды, которые ведёт этот процесс, например 0,1 или 0-3 (не задано: все из "
        "SHARD_COUNT); процессу, который ведёт только часть, нужен PostgreSQL"
    ),
    "cli.setting.DISCORD_API_BASE": (
        "базовый REST-адрес Discord-совместимого сервера вместо discord.com (задай оба или ни "
        "одного)"
    ),
    "cli.setting.DISCORD_GATEWAY_URL": "адрес gateway этого сервера",
    "cli.no_token": (
        "DISCORD_TOKEN не задан.\n"
        "1. Создай приложение на https://discord.com/developers/applications\n"
        "2. Открой раздел Bot, нажми Reset Token и скопируй токен.\n"
        "3. Запиши его в файл .env в каталоге, из которого запускаешь Glory (см. .env.example):\n"
        "       DISCORD_TOKEN=твой-токен\n"
        "4. Запусти `glory` (или `make run`): бот сам зарегистрирует слэш-команды и запишет в "
        "журнал ссылку, по которой его можно пригласить на сервер."
    ),
    "cli.bad_switch": (
        "{name} должно быть on или off, а не «{value}». Исправь это в .env (или оставь пустым "
        "для значения по умолчанию) и запусти снова."
    ),
    "cli.bad_whole_number": (
        "{name} должно быть целым числом, а не «{value}». Исправь это в .env (или оставь пустым "
        "для значения по умолчанию) и запусти снова."
    ),
    "cli.bad_decimal": (
        "{name} должно быть числом вроде 1.5, а не «{value}». Исправь это в .env (или оставь "
        "пустым для значения по умолчанию) и запусти снова."
    ),
    "cli.too_small": (
        "{name} должно быть не меньше {minimum}, а не {value}. Исправь это в .env и запусти снова."
    ),
    "cli.bad_log_level": (
        "LOG_LEVEL должен быть DEBUG, INFO, WARNING, ERROR или CRITICAL, а не «{value}». Исправь "
        "это в .env и запусти снова."
    ),
    "cli.bad_database": (
        "DATABASE_URL «{url}» — не та база данных, с которой работает Glory. Glory хранит игры "
        "в SQLite (sqlite+aiosqlite:///./data/glory.db) или PostgreSQL\n"
        "(postgresql+asyncpg://пользователь:пароль@хост/база): укажи в .env одну из них и "
        "запусти снова."
    ),
    "cli.sqlite_file": (
        "DATABASE_URL «{url}» не называет файл SQLite, а база в памяти потеряла бы все игры.\n"
        "Укажи файл, например sqlite+aiosqlite:///./data/glory.db, и запусти снова."
    ),
    "cli.endpoints_pair": (
        "DISCORD_API_BASE и DISCORD_GATEWAY_URL задаются вместе: оба (для Discord-совместимого "
        "сервера) или ни одного (для discord.com)."
    ),
    "cli.bad_shard_count": (
        "SHARD_COUNT должно быть целым числом шардов или auto, а не «{value}». Исправь это в "
        ".env (или оставь пустым для одного подключения без шардов) и запусти снова."
    ),
    "cli.shard_ids_need_count": (
        "SHARD_IDS выбирает шарды этого процесса из SHARD_COUNT, поэтому SHARD_COUNT должно быть "
        "числом (auto нельзя поделить между процессами). Задай SHARD_COUNT или оставь SHARD_IDS "
        "пустым, чтобы вести все шарды здесь, и запусти снова."
    ),
    "cli.bad_shard_ids": (
        "SHARD_IDS должно перечислять номера шардов или диапазоны вроде 0,2 или 0-3, а не "
        "«{value}». Исправь это в .env и запусти снова."
    ),
    "cli.shard_out_of_range": (
        "SHARD_IDS называет шард {shard}, но при SHARD_COUNT={count} шарды нумеруются от 0 до "
        "{count} − 1. Исправь SHARD_IDS или SHARD_COUNT в .env и запусти снова."
    ),
    "cli.shards_need_postgres": (
        "Этот процесс ведёт шарды {shards}, значит остальные ведут другие процессы, но "
        "DATABASE_URL «{url}» — это SQLite, встроенная база одного процесса со всеми шардами.\n"
        "Процессы, которые делят шарды, делят и PostgreSQL: задай DATABASE_URL как "
        "postgresql+asyncpg://пользователь:пароль@хост/база или оставь SHARD_IDS пустым, чтобы "
        "вести все шарды в этом одном процессе, и запусти снова."
    ),
    "cli.sharding_required": (
        "Discord требует шардинг для бота на стольких серверах (не больше 2 500 на шард; "
        "шарды сейчас: {count}). Задай SHARD_COUNT=auto или число шардов и запусти снова."
    ),
    "cli.invalid_shard": (
        "Discord отклонил настройки шардов (шарды: {count}). Проверь SHARD_COUNT и SHARD_IDS и "
        "запусти снова."
    ),
    "cli.discord_unreachable": (
        "Не удаётся связаться с Discord по адресу {url}: {reason}.\n"
        "Проверь подключение этой машины к интернету (и DISCORD_API_BASE, если задан) и запусти "
        "снова; LOG_LEVEL=DEBUG покажет подробности."
    ),
    "cli.database_unreachable": (
        "Не удаётся открыть базу данных {url}: {reason}.\n"
        "Проверь DATABASE_URL и что сервер базы данных работает и принимает подключения с этой "
        "машины; при следующем запуске бот попробует снова."
    ),
    "cli.bad_token": (
        "Discord отклонил DISCORD_TOKEN. Скопируй в .env новый токен и попробуй снова."
    ),
    "cli.intents": (
        "Discord отказал в запрошенных gateway intents; Glory не нужны привилегированные."
    ),
    # ------------------------------------------------------------------ commands
    "cmd.play.name": "играть",
    "cmd.play.description": "Открыть в этом канале лобби карточной игры",
    "cmd.play.game": "Во что играть",
    "cmd.play.options": (
        "Необязательно, напр. Раунды=1 Сила Ниндзя=вкл (можно задать и в меню лобби)"
    ),
    "cmd.hand.name": "рука",
    "cmd.hand.description": "Показать твою руку и управление (видно только тебе)",
    "cmd.table.name": "стол",
    "cmd.table.description": "Заново показать стол игры этого канала в самом низу",
    "cmd.scores.name": "очки",
    "cmd.scores.description": "Очки игры в этом канале по раундам и всего",
    "cmd.leave.name": "сдаться",
    "cmd.leave.description": (
        "Выйти из игры: твоё место займёт ИИ (для тебя это поражение, если не вернёшься)"
    ),
    "cmd.cancel.name": "отменить",
    "cmd.cancel.description": "Отменить игру в этом канале без результата (хост или модераторы)",
    "cmd.standings.name": "рейтинг",
    "cmd.standings.description": "Таблица лидеров этого сервера",
    "cmd.standings.game": "Только эта игра (если не указана — все игры)",
    "cmd.rules.name": "правила",
    "cmd.rules.description": "Краткое изложение правил игры",
    "cmd.rules.game": "Какая игра",
    "cmd.sync.name": "синхронизация",
    "cmd.sync.description": "Загрузить слэш-команды (только для владельца бота)",
    # ------------------------------------------------------------------ shared words
    "common.on": "вкл.",
    "common.off": "выкл.",
    "common.decision": "принять решение",
    "common.game_id": "Игра #{id}",
    "common.number_list": "{numbers}",
    "common.name_value": "{name} {value}",
    "common.cards": {
        "one": "{count} карта",
        "few": "{count} карты",
        "many": "{count} карт",
        "other": "{count} карты",
    },
    "common.points": {
        "one": "{count} очко",
        "few": "{count} очка",
        "many": "{count} очков",
        "other": "{count} очка",
    },
    "button.join": "Присоединиться",
    "button.leave": "Выйти",
    "button.start": "Начать",
    "button.cancel": "Отменить",
    "button.my_hand": "Моя рука",
    "button.back": "Назад",
    "menu.placeholder": "Выбери…",
    "menu.breadcrumb": "Уже выбрано: {path}",
    "menu.separator": " › ",
    # ------------------------------------------------------------------ /play and lobby
    "play.guild_only": "Играть можно в текстовом канале или ветке сервера.",
    "play.unknown_game": "Я не знаю такой игры.",
    "play.busy": (
        "В этом канале уже есть игра (или лобби). Доиграй её, попроси хоста отменить её "
        "командой {cmd_cancel} или начни игру в другом канале или ветке."
    ),
    "lobby.title": "{game}: лобби",
    "lobby.host": "Хост: {name}",
    "lobby.player_counts": "Число игроков: {counts}",
    "lobby.option": "{option}: **{value}**",
    "lobby.option_choice": "{option}: {value}",
    "lobby.seats": {
        "one": "Присоединился {count} игрок:",
        "few": "Присоединились {count} игрока:",
        "many": "Присоединились {count} игроков:",
        "other": "Присоединились {count} игрока:",
    },
    "lobby.seat": "{number}. {name}",
    "lobby.expires": "Игру начинает хост; иначе лобби закроется {when}.",
    "lobby.closed.active": "Игра началась.",
    "lobby.closed.finished": "Эта игра окончена.",
    "lobby.closed.cancelled": "Это лобби отменено.",
    "lobby.closed.abandoned": "Эта игра прервана.",
    "lobby.closed.expired": "Никто не начал игру вовремя, поэтому лобби закрыто.",
    "lobby.expired_notice": {
        "one": "Лобби «{game}» закрыто: никто не начал игру за {count} минуту.",
        "few": "Лобби «{game}» закрыто: никто не начал игру за {count} минуты.",
        "many": "Лобби «{game}» закрыто: никто не начал игру за {count} минут.",
        "other": "Лобби «{game}» закрыто: никто не начал игру за {count} минуты.",
    },
    "lobby.already_joined": "Ты уже в этом лобби.",
    "lobby.not_joined": "Тебя нет в этом лобби.",
    "lobby.full": "Это лобби заполнено.",
    "lobby.host_cannot_leave": "Хост не может выйти; чтобы закрыть лобби, нажми «{button_cancel}».",
    "lobby.only_host_starts": "Начать игру может только хост.",
    "lobby.only_host_options": "Менять настройки может только хост.",
    "lobby.changed": "Лобби тем временем изменилось; ничего не сделано. Попробуй ещё раз.",
    "options.invalid.player_count": {
        "one": "Для этой игры нужно игроков: {counts}; присоединился {count} игрок.",
        "few": "Для этой игры нужно игроков: {counts}; присоединились {count} игрока.",
        "many": "Для этой игры нужно игроков: {counts}; присоединились {count} игроков.",
        "other": "Для этой игры нужно игроков: {counts}; присоединились {count} игрока.",
    },
    "options.invalid.unknown_option": (
        "У этой игры нет такой настройки; все её настройки есть в меню лобби."
    ),
    "options.invalid.bad_value": "Это значение недопустимо для этой настройки.",
    "options.invalid.conflict": "Эти настройки несовместимы; ничего не изменено.",
    "options.text.unknown_name": "У игры «{game}» нет настройки «{name}». Её настройки: {choices}.",
    "options.text.unknown_value": (
        "«{value}» не подходит для настройки «{option}». Варианты: {choices}."
    ),
    "options.text.missing_value": (
        "Для настройки «{option}» нужно значение после «=». Варианты: {choices}."
    ),
    "cancel.not_allowed": (
        "Отменить эту игру может только хост или участник с правом «Управлять сервером»."
    ),
    # ------------------------------------------------------------------ table
    "table.title": "{game}",
    "table.turn": "Ходит **{name}**: {decision}.",
    "table.winners": {
        "one": "Игра окончена. Победитель: **{names}**.",
        "few": "Игра окончена. Победители: **{names}**.",
        "many": "Игра окончена. Победители: **{names}**.",
        "other": "Игра окончена. Победители: **{names}**.",
    },
    "table.ended.cancelled": "Эта игра отменена; результат не записан.",
    "table.ended.abandoned": "За столом не осталось игроков; игра записана как прерванная.",
    "table.ended.expired": "Время этой игры истекло.",
    "table.scores": "Очки",
    "table.score": {
        "one": "{name}: {count} очко",
        "few": "{name}: {count} очка",
        "many": "{name}: {count} очков",
        "other": "{name}: {count} очка",
    },
    "table.log": "Последние ходы",
    "table.log_line": "• {line}",
    "table.footer": "Игра #{id} · ход {move}",
    "table.moved": "Стол переехал вниз: {link}",
    "table.reposted": "Вот стол ещё раз, в самом низу канала.",
    "dm.closed": {
        "one": "{mentions}: не могу отправить тебе личные сообщения. Чтобы увидеть свою руку и "
        "сделать ход, нажми **{button}** на столе.",
        "few": "{mentions}: не могу отправить вам личные сообщения. Чтобы увидеть свои руки и "
        "сделать ход, нажмите **{button}** на столе.",
        "many": "{mentions}: не могу отправить вам личные сообщения. Чтобы увидеть свои руки и "
        "сделать ход, нажмите **{button}** на столе.",
        "other": "{mentions}: не могу отправить вам личные сообщения. Чтобы увидеть свои руки и "
        "сделать ход, нажмите **{button}** на столе.",
    },
    # ------------------------------------------------------------------ hand and moves
    "hand.title": "{game}: рука игрока {name}",
    "hand.your_turn": "**Твой ход:** {decision}.",
    "hand.waiting": "Ждём **{name}**: {decision}.",
    "hand.waiting_quiet": (
        "Сейчас не твой ход. Игра видна на столе в канале; я напишу тебе, когда нужно будет "
        "принять решение."
    ),
    "hand.private_log": "Видно только тебе:",
    "hand.not_a_player": "Ты не участвуешь в этой игре.",
    "move.not_your_control": "Это управление принадлежит другому игроку.",
    "move.private_only": (
        "Ходы делаются в твоей собственной руке (в личных сообщениях или через "
        "{button_my_hand}); ничего не изменилось."
    ),
    "move.not_your_turn": "Сейчас не твоя очередь.",
    "move.illegal": "Этот ход сейчас недопустим; ничего не изменилось.",
    "move.stale": "Это управление устарело (игра ушла вперёд); вот актуальное.",
    "move.stale_short": (
        "Чужой ход оказался быстрее; ничего не применено. Нажми «{button_my_hand}» ещё раз."
    ),
    "move.applied_display_failed": (
        "Твой ход принят, но обновить все сообщения не удалось. {cmd_hand} и {cmd_table} "
        "покажут текущую игру."
    ),
    "move.not_applied": "Что-то пошло не так; твой ход НЕ принят. Попробуй ещё раз.",
    "game.ended.lobby": "Эта игра ещё не началась.",
    "game.ended.finished": "Эта игра окончена.",
    "game.ended.cancelled": "Эта игра отменена.",
    "game.ended.abandoned": "Эта игра прервана.",
    "game.ended.expired": "Срок этого лобби истёк.",
    "game.none_here": "В этом канале нет игры. Начни её командой {cmd_play}.",
    "game.not_started": "Игра ещё не началась.",
    "game.already_ended": "Эта игра уже закончилась.",
    "game.cancelled_by": "Игра отменена игроком {name}; результат не записывается.",
    "game.abandoned_by": "{name} сдаётся; игра заканчивается и записывается как прерванная.",
    "leave.use_lobby_button": "Игра ещё не началась: нажми кнопку «{button_leave}» в лобби.",
    "error.game_gone": "Этой игры больше нет.",
    "error.unknown_control": "Неизвестный элемент управления.",
    "error.damaged_control": (
        "Этот элемент управления создан не Glory или повреждён; ничего не изменилось. "
        "Пользуйся кнопками своей руки или {cmd_hand}."
    ),
    "error.stopping": "Glory перезапускается; ничего не изменилось. Попробуй через минуту.",
    "error.unexpected": "Что-то пошло не так; ничего не изменено. Попробуй ещё раз.",
    # ------------------------------------------------------------------ scores, standings
    "scores.title": "{game}: очки (игра #{id})",
    "scores.by_round": "По раундам",
    "scores.total": "Всего",
    "scores.no_rounds": "Ещё ни один раунд не закончен.",
    "scores.round": "Раунд {number}: {scores}",
    "scores.entry": "{name} {count}",
    "scores.page": "Страница {page} из {pages}",
    "scores.bad_page": "Неверный номер страницы; ничего не изменилось.",
    "standings.title": "Рейтинг: {scope}",
    "standings.all_games": "все игры",
    "standings.gap": "…",
    "standings.empty": "На этом сервере ещё нет завершённых игр.",
    "standings.wins": {
        "one": "{count} победа",
        "few": "{count} победы",
        "many": "{count} побед",
        "other": "{count} победы",
    },
    "sync.owner_only": "Синхронизировать команды может только владелец бота.",
    "sync.done": {
        "one": "Синхронизирована {count} команда.",
        "few": "Синхронизированы {count} команды.",
        "many": "Синхронизировано {count} команд.",
        "other": "Синхронизировано {count} команды.",
    },
}
