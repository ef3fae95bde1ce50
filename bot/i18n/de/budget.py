"""Deutsche Texte zum globalen Anfragebudget bei Discord (seine Einstellung)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    "cli.setting.GLOBAL_REQUESTS_PER_SECOND": (
        "wie viele Anfragen pro Sekunde das Bot-Token insgesamt an Discord stellen darf, alle"
        " Prozesse zusammen (Discord erlaubt 50, sofern es das Limit des Bots nicht erhöht "
        "hat)"
    ),
}
