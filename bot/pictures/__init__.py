"""Pictures of the games: the table, a hand and the score chart, drawn with Pillow.

``scenes`` turns a stored game into what may be drawn (views only), the layouts in
``layouts/`` draw each game on a ``canvas.Canvas`` that records what it drew, ``draw`` turns a
scene into PNG bytes, and ``service.Pictures`` draws off the event loop, keeps each picture
once and attaches it to the bot's messages. See ``docs/pictures.md``.
"""
