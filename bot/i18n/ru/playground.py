"""Русские тексты песочницы (``glory playground``): командная строка и страница.

Тексты страницы (``playground.page.*``) сохраняют свои ``{заполнители}``: их заполняет страница.
"""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "playground.cli.description": (
        "Играть в Glory в браузере без Discord: настоящий бот работает с локальным эмулятором "
        "Discord, а страница показывает канал сервера и личные сообщения каждого игрока."
    ),
    "playground.cli.port": "порт страницы на 127.0.0.1 (по умолчанию: {port})",
    "playground.cli.players": "игроки в начале, через запятую",
    "playground.cli.language": "язык Discord у игроков, напр. de или ru-RU",
    "playground.cli.pictures": "рисует ли бот картинки стола и руки",
    "playground.cli.no_rate_limits": "не ограничивать бота лимитами запросов Discord",
    "playground.cli.workdir": (
        "хранить базу данных и журнал бота в этом каталоге (по умолчанию во временном, "
        "который удаляется в конце)"
    ),
    "playground.cli.starting": "Бот запускается с локальным эмулятором Discord…",
    "playground.cli.ready": (
        "Песочница Glory: {url}\nЖурнал бота: {log}\nCtrl+C останавливает её."
    ),
    "playground.cli.port_busy": "Порт {port} занят: выберите другой через --port.",
    "playground.cli.bot_failed": "Бот не запустился; конец его журнала ({log}):",
    "playground.cli.stopped": "Песочница остановлена.",
    "playground.refused.name": "Имя игрока должно быть длиной от 1 до 32 символов.",
    "playground.refused.name_taken": "Игрок с именем {name} уже есть.",
    "playground.refused.player": "Такого игрока нет.",
    "playground.refused.channel": "Такого канала нет.",
    "playground.refused.message": "Этого сообщения больше нет.",
    "playground.refused.command": "Здесь у бота нет такой команды.",
    "playground.refused.option": "Параметр {name} не подходит к этой команде.",
    "playground.refused.fill": "Здесь нет лобби со свободным местом, или вы не его создатель.",
    "playground.refused.origin": "Песочница отвечает только своей странице, {page}.",
    "playground.refused.request": "Страница прислала то, чего песочница не понимает.",
    "playground.refused.action": "Discord не дал бы это сделать: {reason}",
    "playground.page.title": "Песочница Glory",
    "playground.page.acting_as": "Вы —",
    "playground.page.channels": "Текстовые каналы",
    "playground.page.dms": "Личные сообщения",
    "playground.page.add_player": "Добавить игрока",
    "playground.page.player_name": "Имя",
    "playground.page.add_channel": "Добавить канал",
    "playground.page.channel_name": "имя-канала",
    "playground.page.phone": "Ширина телефона",
    "playground.page.fill": "Добавить ИИ",
    "playground.page.ai_players": "Игроков ИИ",
    "playground.page.send": "Отправить",
    "playground.page.command": "Выберите команду",
    "playground.page.message_in": "Написать в #{channel}",
    "playground.page.dm_with": "Личные сообщения {name} с {bot}",
    "playground.page.only_you": "Это видите только вы",
    "playground.page.thinking": "{bot} думает…",
    "playground.page.used": "{user} использует {command}",
    "playground.page.edited": "(изменено)",
    "playground.page.app_tag": "ПРИЛОЖЕНИЕ",
    "playground.page.failed_command": "Приложение не ответило",
    "playground.page.failed_component": "Ошибка взаимодействия",
    "playground.page.select": "Сделайте выбор",
    "playground.page.today": "Сегодня в {time}",
    "playground.page.reconnecting": "Восстанавливаем связь с песочницей…",
    "playground.page.bot_stopped": "Процесс бота остановился: причина в его журнале.",
    "playground.page.refused": "Отклонено по правилам Discord: {count}",
    "playground.page.rate_limited": "Ответов 429: {count}",
    "playground.page.failed": "Неудавшихся взаимодействий: {count}",
    "playground.page.unhandled": "Маршрутов, которых нет в эмуляторе: {count}",
    "playground.page.empty": "Здесь пока ничего нет. Выберите {cmd_play} в поле команд ниже.",
    "playground.page.required": "обязательно",
    "playground.page.not_emulated": "В песочнице недоступно",
    "playground.page.new_messages": "новое",
}
