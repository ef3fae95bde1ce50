"""Deutsche Texte zum globalen Anfragebudget bei Discord (seine Einstellungen: das Limit,
das Warten des Tischs)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cli.setting.GLOBAL_REQUESTS_PER_SECOND": (
        "wie viele Anfragen pro Sekunde das Bot-Token insgesamt an Discord stellen darf, alle"
        " Prozesse zusammen (Discord erlaubt 50, sofern es das Limit des Bots nicht erhöht "
        "hat)"
    ),
    "cli.setting.TABLE_TURN_HOLD_SECONDS": (
        "wie viele Sekunden ein Tisch höchstens wartet, während sein Spieler seinen Zug "
        "fortsetzt (er wird gezeigt, sobald ein anderer Spieler an der Reihe ist; 0: jeder "
        "Spielzug sofort)"
    ),
}
