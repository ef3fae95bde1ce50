"""German messages of the ``/rules`` guide, the lobby options' explanations and the option
conflicts (names as in the German rulebooks and our German catalog: Auslage, Speerträgerin …)."""

from __future__ import annotations

MESSAGES: dict[str, str | dict[str, str]] = {
    # ------------------------------------------------------------------ the guide's frame
    "guide.title": "{game} · {page}",
    "guide.footer": "Seite {page} von {pages}",
    "guide.footer_path": (
        "Seite {page} von {pages} · die vollständigen Regeln: {path} im Quellcode des Bots"
    ),
    "guide.full_rules": "Vollständige Regeln",
    "guide.options.title": "Optionen",
    "guide.options.intro": (
        "Der Gastgeber stellt sie vor dem Start in den Menüs der Lobby ein oder schreibt sie "
        "hinter {cmd_play}, zum Beispiel `{example}`."
    ),
    "guide.option": "**{option}**: {about}",
    "guide.option_for": {
        "one": "**{option}** (nur mit {count} Spieler): {about}",
        "other": "**{option}** (nur mit {count} Spielern): {about}",
    },
    "guide.value": "• {value}: {about}",
    "guide.value_default": "• {value} (Standard): {about}",
    # ------------------------------------------------------------------ option conflicts
    "options.conflict": "{options} passen nicht zusammen: {reason} Es wurde nichts geändert.",
    "options.conflict.option": "{option} ({value})",
    "options.conflict.and": "{first} und {second}",
    "options.conflict.call_to_glory.tasks_need_full_game": (
        "Kaiserliche Aufträge werden über drei Runden aufgedeckt; sie brauchen das ganze Spiel, "
        "nicht das Spiel mit einer Runde."
    ),
    # ------------------------------------------------------------------ Call to Glory
    "guide.call_to_glory.goal.title": "Ziel und Karten",
    "guide.call_to_glory.goal": (
        "**Ziel:** Sammle Charaktere in deiner Auslage und hole über alle Runden die meisten "
        "Punkte (4 Runden; 3 mit Kaiserlichen Aufträgen; 1 im schnellen Spiel).\n"
        "**Karten:** 110 Karten in neun Typen. Der Wert eines Typs ist zugleich die Zahl seiner "
        "Karten: Kaiser 6, Kaiserin 7, Daimyo 8, Shogun 9, Samurai 12, Ninja 14, Gesandter 16, "
        "Mönch 18, Bauer 20.\n"
        "**Jede Runde** beginnt neu: Alle Karten werden gemischt, jeder bekommt 3 Karten, der "
        "Rest bildet zwei Zugstapel, und beide Ablagestapel sind leer. Nur die Punkte bleiben."
    ),
    "guide.call_to_glory.turn.title": "Ein Zug",
    "guide.call_to_glory.turn": (
        "**1. Zwei Karten ziehen**, nacheinander und von zwei verschiedenen Stellen: Zugstapel 1 "
        "oder 2 oder die oberste Karte von Ablagestapel 1 oder 2. Du siehst die erste Karte, "
        "bevor du die zweite Stelle wählst.\n"
        "**2. Danach genau eines davon:** einen Satz aus der Hand in deine Auslage legen oder "
        "eine Karte auf einen Ablagestapel abwerfen (auch eine gerade gezogene).\n"
        "**Ablagestapel:** Karten kommen immer auf einen leeren Ablagestapel, wenn es einen "
        "gibt; nur wenn beide Karten tragen, wählt der Spieler.\n"
        "**Kein Handkartenlimit:** Behalte so viele Karten, wie du willst."
    ),
    "guide.call_to_glory.sets.title": "Sätze",
    "guide.call_to_glory.sets": (
        "**Größe:** Ein Satz sind 2 oder mehr gleiche Karten; zu dritt und zu viert brauchen "
        "Samurai (12), Ninja (14) und Gesandter (16) mindestens 3.\n"
        "**Schlagen:** Zeigt schon eine Auslage (auch deine) diesen Typ, muss dein Satz mehr "
        "Karten haben. Der alte Satz verlässt den Tisch: Sein Besitzer legt ihn auf einen "
        "Ablagestapel seiner Wahl.\n"
        "**Vergrößern:** Du legst nie Karten an einen ausliegenden Satz an. Um deinen zu "
        "vergrößern, legst du einen größeren Satz aus; dein alter wird abgeworfen.\n"
        "**Jeder Typ einmal:** Ein Typ liegt in höchstens einer Auslage, und du legst pro Zug "
        "höchstens einen Satz aus."
    ),
    "guide.call_to_glory.scoring.title": "Rundenende und Wertung",
    "guide.call_to_glory.scoring": (
        "**Die Runde endet** nach einem Zug, nach dem eines davon gilt: Eine Auslage zeigt 6 "
        "verschiedene Typen (zu zweit), 5 (zu dritt) oder 4 (zu viert); alle neun Typen liegen "
        "aus; ein Zugstapel ist leer.\n"
        "**Wertung:** Jede Auslage bringt die Werte der Typen, die sie zeigt, jeden Typ einmal, "
        "egal mit wie vielen Karten: drei Bauern und zwei Mönche bringen 20 + 18 = 38. "
        "Handkarten zählen nichts.\n"
        "**Nächste Runde:** Wer die niedrigste Summe hat, beginnt (bei Gleichstand: wer in der "
        "gerade gespielten Runde weniger Punkte hatte).\n"
        "**Spielende:** Nach der letzten Runde gewinnt die höchste Summe; bei Gleichstand die "
        "beste einzelne Runde, und ist auch die gleich, teilen sich die Spieler den Sieg."
    ),
    "guide.call_to_glory.variants.title": "Die beiden Varianten",
    "guide.call_to_glory.variants": (
        "**Kaiserliche Aufträge:** Vor Runde 1 bekommt jeder drei geheime Auftragskarten, eine "
        "aus jedem Stapel (A zahlt 5, B 4, C 3). Nach jeder der drei Runden deckt jeder eine "
        "auf: Jede Karte des genannten Typs in einer Auslage bringt ihrem Besitzer den Bonus.\n"
        "**Ninja:** Zu Beginn jeder Runde liegen vier Ninja-Figuren im Vorrat. Wer einen "
        "Ninja-Satz (14) auslegt, nimmt eine, solange welche da sind. In einem späteren eigenen "
        "Zug gibst du jederzeit eine Figur zurück und entfernst damit eine Karte aus der Auslage "
        "eines anderen Spielers; er wirft sie ab.\n"
        "**Nach einem Ninja:** Ein Satz unter der Mindestgröße zählt weiter seinen vollen Wert, "
        "und wer diesen Typ auslegt, muss den Rest trotzdem schlagen."
    ),
    "guide.call_to_glory.example.title": "Ein Beispiel",
    "guide.call_to_glory.example": (
        "Drei Spieler. Anna hat zwei Bauern; sie nimmt einen dritten Bauern von Ablagestapel 1 "
        "und eine Karte von Zugstapel 2.\n"
        "Bens Auslage zeigt zwei Bauern. Anna legt ihre drei aus: mehr Karten, also verlassen "
        "Bens zwei seine Auslage, und er legt sie auf einen Ablagestapel.\n"
        "Annas Auslage zeigt jetzt Bauer, Mönch, Shogun und Kaiser; zu dritt würde ein fünfter "
        "Typ die Runde beenden.\n"
        "Endete die Runde jetzt, bekäme Anna 20 + 18 + 9 + 6 = 53 Punkte."
    ),
    "guide.call_to_glory.options.example": "rounds=1 ninja=on",
    "guide.call_to_glory.option.rounds": "Wie viele Runden das Spiel dauert.",
    "guide.call_to_glory.option.rounds.4": (
        "Das ganze Spiel: 4 Runden (3 mit Kaiserlichen Aufträgen)."
    ),
    "guide.call_to_glory.option.rounds.1": (
        "Ein schnelles Spiel mit einer Runde (nicht mit Kaiserlichen Aufträgen)."
    ),
    "guide.call_to_glory.option.imperial_tasks": (
        "Geheime Auftragskarten bringen Bonuspunkte für Typen in den Auslagen; 3 Runden."
    ),
    "guide.call_to_glory.option.imperial_tasks.on": (
        "Jeder bekommt 3 geheime Aufträge und deckt nach jeder Runde einen für Bonuspunkte auf."
    ),
    "guide.call_to_glory.option.imperial_tasks.off": "Keine Auftragskarten.",
    "guide.call_to_glory.option.ninja": (
        "Ausgelegte Ninjas bringen Figuren, die Karten aus fremden Auslagen entfernen."
    ),
    "guide.call_to_glory.option.ninja.on": (
        "Ein Ninja-Satz bringt eine Figur; später entfernt sie eine Karte aus einer fremden "
        "Auslage."
    ),
    "guide.call_to_glory.option.ninja.off": "Ninjas sind ein gewöhnlicher Typ.",
    # ------------------------------------------------------------------ Kami
    "guide.kami.goal.title": "Ziel und Karten",
    "guide.kami.goal": (
        "**Ziel:** Werde als Erster deine Handkarten los. Nur die Karte, mit der das gelingt, "
        "bringt Punkte, für dich oder dein Team.\n"
        "**Karten:** 32 Karten in acht Typen: Soldat 1 (10 Karten); Speerträgerin 2, Reiter 2, "
        "Silberdrache 3, Golddrache 3 (je 4); Turm 4, Wahnsinniger 4, Kaiserin 5 (je 2). Die "
        "beiden Drachen sind verschiedene Typen.\n"
        "**Spieler:** Zu viert spielen zwei Teams, Partner sitzen sich gegenüber, je 8 Karten. "
        "Zu dritt spielt jeder für sich mit je 8 Karten (8 bleiben ungenutzt). Zu zweit gibt es "
        "ein Duell: je 8 Karten und acht Söldnerstapel in der Mitte.\n"
        "**Beginn:** Jeder zieht eine Karte, die höchste beginnt; nach jeder Runde rückt der "
        "Start einen Platz im Uhrzeigersinn weiter."
    ),
    "guide.kami.round.title": "Eine Runde",
    "guide.kami.round": (
        "**Eröffnen:** Der Startspieler legt eine Karte verdeckt in seine Verteidigungslinie "
        "und greift dann mit einer offenen Karte an. Eröffnen ist Pflicht.\n"
        "**Antworten:** Im Uhrzeigersinn passt jeder andere Spieler oder kontert: Er legt eine "
        "Karte des angreifenden Typs offen in seine Verteidigungslinie und greift dann mit einer "
        "beliebigen eigenen Karte an. Passen ist immer erlaubt, auch mit passender Karte.\n"
        "**Nach einem Konter** ist der Konternde der Angreifer, und alle werden von seiner "
        "Linken an neu gefragt, auch wer vorher gepasst hat. Du darfst deinen Partner kontern.\n"
        "**Alle haben gepasst:** Der Angreifer eröffnet erneut, verdeckte Karte und Angriff.\n"
        "**Rundenende:** Sobald eine Hand leer ist, endet die Runde; niemand antwortet mehr."
    ),
    "guide.kami.empress.title": "Die Kaiserin",
    "guide.kami.empress": (
        "**Kontern:** Die Kaiserin kontert jeden Angriff außer Soldat und Speerträgerin.\n"
        "**Angreifen:** Sie darf erst angreifen, wenn die andere Kaiserin offen in einer "
        "Verteidigungslinie liegt (bei irgendwem, auch bei dir), oder als letzte Karte deiner "
        "Hand. Eine verdeckte Kaiserin zählt nicht, und beide zu halten auch nicht.\n"
        "**Beide in einem Zug:** Mit einer Kaiserin kontern, dann mit der anderen angreifen: "
        "erlaubt, und diesen Angriff kann niemand kontern."
    ),
    "guide.kami.demoralized.title": "Demoralisiert (zu viert)",
    "guide.kami.demoralized": (
        "**Wann:** Nach jedem Austeilen zu viert darf ein Spieler mit 5 oder mehr Soldaten "
        "diese zeigen.\n"
        "**Dann:** Sein Partner entscheidet. Neu austeilen: Niemand punktet, alle Karten werden "
        "gemischt, und derselbe Startspieler teilt neu aus. Oder weiterspielen: Die gezeigten "
        "Soldaten bleiben allen bekannt.\n"
        "**Wer gefragt wird:** Standardmäßig jeder Spieler der Reihe nach, auch mit weniger "
        "Soldaten, damit die Frage keine Hand verrät. Die Option Demoralisiert kann nur Spieler "
        "mit 5 Soldaten fragen oder die Regel abschalten."
    ),
    "guide.kami.duel.title": "Das Duell (zu zweit)",
    "guide.kami.duel": (
        "**Söldner:** 16 Karten liegen in acht Stapeln in der Mitte, je eine verdeckte unter "
        "einer offenen. Wann immer du eine Karte legst (Eröffnen, Kontern oder Angriff), darfst "
        "du statt einer Handkarte einen offenen Söldner nehmen; die Karte darunter wird "
        "aufgedeckt.\n"
        "**Gleiche Regeln:** Ein Söldner muss passen wie eine Handkarte (der angreifende Typ "
        "beim Kontern, die Angriffsbedingung der Kaiserin). Eine Söldner-Kaiserin ist nie deine "
        "letzte Karte.\n"
        "**Eine Runde gewinnen:** Deine letzte Handkarte muss ein Angriff sein. Sie darf nicht "
        "in die Verteidigung, und keine Verteidigungskarte, nach der dir kein Angriff bliebe.\n"
        "**Letzte Karte, kein Söldner mehr:** Sie greift allein an, ohne Verteidigungskarte; "
        "sie punktet, aber nie doppelt."
    ),
    "guide.kami.scoring.title": "Wertung und Spielende",
    "guide.kami.scoring": (
        "**Rundenpunkte:** Nur die Seite, deren Hand leer wird, punktet: mit dem Wert ihrer "
        "letzten Angriffskarte. Karten in anderen Händen zählen nichts.\n"
        "**Volltreffer (doppelt):** Endet die Runde mit einer Eröffnung, deren verdeckte Karte "
        "denselben Typ hat wie der Angriff, zählt sie doppelt. Ein Konter zählt nie doppelt. "
        "Am besten: Kaiserin unter Kaiserin, 10.\n"
        "**Spielende:** Mit Soldat (Standard) gewinnt die Seite, die zuerst die Zielpunktzahl "
        "erreicht. Mit Gebieter muss sie genau getroffen werden; Punkte darüber zählen rückwärts "
        "(17 bei Ziel 15 ergibt 13). Mit Kami fällt die Summe beim Überschreiten auf 0.\n"
        "**Kein Gleichstand:** Pro Runde punktet nur eine Seite, also gibt es immer einen Sieger."
    ),
    "guide.kami.example.title": "Ein Beispiel",
    "guide.kami.example": (
        "Vier Spieler: Anna und Cem gegen Ben und Dana. Anna legt einen Turm verdeckt und "
        "greift mit einem Reiter an.\n"
        "Ben und Cem passen. Dana kontert mit einem Reiter und greift mit einem Silberdrachen "
        "an. Anna kontert mit einem Silberdrachen und greift mit einer Speerträgerin an.\n"
        "Später hat Anna nur noch zwei Karten, beides Wahnsinnige. Als alle auf ihren Angriff "
        "gepasst haben, eröffnet sie: einen Wahnsinnigen verdeckt, den anderen als Angriff.\n"
        "Ihre Hand ist leer: Die Runde endet, und Anna und Cem bekommen 4 Punkte, verdoppelt auf "
        "8, weil die verdeckte Karte auch ein Wahnsinniger ist."
    ),
    "guide.kami.options.example": "target=10 ending=lord",
    "guide.kami.option.ending": "Wie eine Seite gewinnt: das Ziel erreichen oder genau treffen.",
    "guide.kami.option.ending.soldier": (
        "Die Seite, die zuerst die Zielpunktzahl oder mehr erreicht, gewinnt."
    ),
    "guide.kami.option.ending.lord": (
        "Das Ziel genau treffen; Punkte darüber zählen rückwärts (17 bei 15 ergibt 13)."
    ),
    "guide.kami.option.ending.kami": (
        "Das Ziel genau treffen; wer darüber kommt, fällt auf 0 zurück."
    ),
    "guide.kami.option.target": "Die Punktzahl, die das Spiel beendet.",
    "guide.kami.option.target.5": "Bis 5 Punkte: ein schnelles Spiel.",
    "guide.kami.option.target.10": "Bis 10 Punkte.",
    "guide.kami.option.target.15": "Bis 15 Punkte: das Standardspiel.",
    "guide.kami.option.target.20": "Bis 20 Punkte.",
    "guide.kami.option.target.25": "Bis 25 Punkte: ein langes Spiel.",
    "guide.kami.option.target.30": "Bis 30 Punkte: das längste Spiel.",
    "guide.kami.option.three_player_deal": "Wie viele Karten jeder zu dritt bekommt.",
    "guide.kami.option.three_player_deal.printed": (
        "Je 8 Karten, wie gedruckt; die übrigen 8 bleiben verdeckt und ungenutzt."
    ),
    "guide.kami.option.three_player_deal.publisher": (
        "Je 10 Karten (FAQ des Verlags); zwei Spieler sehen je eine der 2 übrigen Karten an."
    ),
    "guide.kami.option.lord_clamp": (
        "Beim Ende Gebieter: ob eine Summe unter 0 fallen darf (nur bei kleinen Zielen)."
    ),
    "guide.kami.option.lord_clamp.on": "Eine Summe, die unter 0 fiele, bleibt bei 0.",
    "guide.kami.option.lord_clamp.off": "Eine Summe darf unter 0 fallen (14 bei Ziel 5: -4).",
    "guide.kami.option.demoralized": (
        "Wer 5 Soldaten hat, darf sie zeigen; sein Partner darf dann neu austeilen lassen."
    ),
    "guide.kami.option.demoralized.ask_everyone": (
        "Nach jedem Austeilen werden alle gefragt, so verrät die Frage keine Hand."
    ),
    "guide.kami.option.demoralized.ask_eligible": (
        "Nur Spieler mit 5 Soldaten werden gefragt: schneller, aber alle sehen, wer sie hat."
    ),
    "guide.kami.option.demoralized.off": (
        "Keine Demoralisiert-Frage: Der Startspieler eröffnet sofort."
    ),
    # ------------------------------------------------------------------ Clans and Glory
    "guide.clans_and_glory.goal.title": "Ziel und Tisch",
    "guide.clans_and_glory.goal": (
        "**Ziel:** Gewinne mit deinen Schilden Clanmitglieder; ihre Werte sind deine Punkte.\n"
        "**Karten:** sieben Farben, jede mit den Werten 3 bis 6 (zu zweit), 3 bis 7 (zu dritt) "
        "oder 3 bis 8 (zu viert).\n"
        "**Der Tisch:** eine Reihe von Tableaus, zwei mehr als Spieler. Jedes Tableau hat drei "
        "Spalten mit einem Platz im Norden und einem im Süden, die beiden äußeren Tableaus "
        "zusätzlich einen Platz am Lagerfeuer. Auf jedem Tableau liegt anfangs eine offene "
        "Karte.\n"
        "**Benachbarte Plätze:** die Plätze links und rechts (auch über eine Tableau-Grenze) "
        "und der gegenüber in derselben Spalte; die beiden Lagerfeuerplätze liegen einander "
        "gegenüber."
    ),
    "guide.clans_and_glory.turn.title": "Ein Zug",
    "guide.clans_and_glory.turn": (
        "**1. Eine Karte legen:** Lege eine Handkarte offen auf einen freien Platz, dessen "
        "benachbarte Plätze eine offene Karte gleicher Farbe oder gleichen Werts zeigen. "
        "Passen geht nicht.\n"
        "**Verdeckt:** Nur wenn keine deiner Karten irgendwo passt, legst du eine verdeckt auf "
        "einen freien Platz. Sie belegt den Platz, passt zu nichts und zählt nie; nur du kennst "
        "sie.\n"
        "**2. Ein Schild, wenn du willst:** Setze einen deiner fünf Schilde auf das Tableau, auf "
        "dem deine Karte liegt, oben auf seinen Schildstapel. Höchstens einen pro Zug."
    ),
    "guide.clans_and_glory.scoring.title": "Spielende und Wertung",
    "guide.clans_and_glory.scoring": (
        "**Ende:** Das Spiel endet, wenn der letzte Spieler seine letzte Karte gelegt hat; die "
        "anderen behalten je eine Karte, die aus dem Spiel geht.\n"
        "**Wertung:** Jedes Tableau für sich. Seine Schilde zählen in der Reihenfolge, in der sie "
        "gesetzt wurden: Der erste nimmt alle offenen Karten des niedrigsten Werts auf dem "
        "Tableau, der zweite alle des nächsten vorhandenen Werts und so weiter. Überzählige "
        "Schilde bekommen nichts; übrige Werte bekommt niemand.\n"
        "**Sieger:** die meisten Punkte; bei Gleichstand mehr Karten, sonst teilen sich die "
        "Spieler den Sieg."
    ),
    "guide.clans_and_glory.example.title": "Ein Beispiel",
    "guide.clans_and_glory.example": (
        "Auf Tableau 1 liegen offen 3, 3, 5, 5 und 6; Anna hat dort den ersten Schild gesetzt, "
        "Ben den zweiten.\n"
        "Am Ende nimmt Anna beide 3er (6 Punkte) und Ben beide 5er (10 Punkte); die 6 bekommt "
        "niemand.\n"
        "Ein früher Schild ist sicher, aber billig; ein später wettet darauf, was das Tableau "
        "noch bekommt."
    ),
    "guide.clans_and_glory.options.example": "start_seats=random",
    "guide.clans_and_glory.option.final_turn_shield_allowed": (
        "Ob die letzte Karte des Spiels noch einen Schild bekommen darf."
    ),
    "guide.clans_and_glory.option.final_turn_shield_allowed.on": (
        "Der letzte Spieler darf in seinem letzten Zug noch einen Schild setzen."
    ),
    "guide.clans_and_glory.option.final_turn_shield_allowed.off": (
        "Das Spiel endet gleich nach der letzten Karte, ohne Schild."
    ),
    "guide.clans_and_glory.option.start_seats": "Wo die Startkarte jedes Tableaus liegt.",
    "guide.clans_and_glory.option.start_seats.north_middle": (
        "Auf dem mittleren Platz im Norden jedes Tableaus."
    ),
    "guide.clans_and_glory.option.start_seats.alternating": (
        "Mittlerer Platz, im Norden auf dem 1., 3., … Tableau, sonst im Süden."
    ),
    "guide.clans_and_glory.option.start_seats.random": "Auf einem zufälligen Platz jedes Tableaus.",
    "guide.clans_and_glory.option.cross_board_adjacency": (
        "Ob die Randplätze benachbarter Tableaus benachbart sind."
    ),
    "guide.clans_and_glory.option.cross_board_adjacency.on": (
        "Ein Randplatz ist mit dem Randplatz daneben auf dem nächsten Tableau benachbart."
    ),
    "guide.clans_and_glory.option.cross_board_adjacency.off": (
        "Die Randplätze eines Tableaus haben keinen Nachbarn auf dem nächsten Tableau."
    ),
}
