"""Unit tests of ``bot/loopback/discord_limits.py``: every limit exactly at and one past its
boundary, custom_id uniqueness, empty messages (created and edited), select rules, and
Discord's answer bodies. The harnesses trust this validator to refuse what Discord refuses and
nothing more."""

from __future__ import annotations

from typing import Any

import pytest

from bot.loopback.discord_limits import (
    EMPTY_MESSAGE,
    EMPTY_MESSAGE_PROBLEM,
    INVALID_FORM_BODY,
    callback_problems,
    component_problems,
    embed_problems,
    message_problems,
    refusal,
)


def button(custom_id: str = "b", **fields: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id, **fields}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(count: int = 3, **fields: Any) -> dict[str, Any]:
    options = [{"label": f"o{n}", "value": f"v{n}"} for n in range(count)]
    return {"type": 3, "custom_id": "s", "options": options, **fields}


def text(length: int) -> str:
    return "x" * length


# -- content and nonce ---------------------------------------------------------------------------


def test_content_is_at_most_2000_characters() -> None:
    assert message_problems({"content": text(2000)}) == []
    assert message_problems({"content": text(2001)}) == ["content: 2001 characters, at most 2000"]


def test_a_nonce_is_at_most_25_characters() -> None:
    assert message_problems({"content": "x", "nonce": text(25)}) == []
    assert message_problems({"content": "x", "nonce": text(26)}) == [
        "nonce: 26 characters, at most 25"
    ]
    assert message_problems({"content": "x", "nonce": 18_446_744_073_709_551_615}) == []


# -- embeds --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("embed_at", "embed_past", "problem"),
    [
        ({"title": text(256)}, {"title": text(257)}, "embeds[0].title: 257 characters"),
        (
            {"description": text(4096)},
            {"description": text(4097)},
            "embeds[0].description: 4097 characters",
        ),
        (
            {"footer": {"text": text(2048)}},
            {"footer": {"text": text(2049)}},
            "embeds[0].footer.text: 2049 characters",
        ),
        (
            {"author": {"name": text(256)}},
            {"author": {"name": text(257)}},
            "embeds[0].author.name: 257 characters",
        ),
        (
            {"fields": [{"name": text(256), "value": "v"}]},
            {"fields": [{"name": text(257), "value": "v"}]},
            "embeds[0].fields[0].name: 257 characters",
        ),
        (
            {"fields": [{"name": "n", "value": text(1024)}]},
            {"fields": [{"name": "n", "value": text(1025)}]},
            "embeds[0].fields[0].value: 1025 characters",
        ),
    ],
)
def test_each_embed_text_has_its_limit(
    embed_at: dict[str, Any], embed_past: dict[str, Any], problem: str
) -> None:
    assert embed_problems([embed_at]) == []
    [found] = embed_problems([embed_past])
    assert found.startswith(problem)


def test_at_most_10_embeds_and_25_fields() -> None:
    assert embed_problems([{"title": "t"}] * 10) == []
    assert embed_problems([{"title": "t"}] * 11) == ["embeds: 11 embeds, at most 10"]
    fields = [{"name": "n", "value": "v"}]
    assert embed_problems([{"fields": fields * 25}]) == []
    assert embed_problems([{"fields": fields * 26}]) == ["embeds[0].fields: 26 fields, at most 25"]


def test_a_field_needs_a_name_and_a_value() -> None:
    assert embed_problems([{"fields": [{"name": "", "value": "v"}]}]) == [
        "embeds[0].fields[0]: name and value must not be empty"
    ]


def test_all_embeds_together_hold_at_most_6000_characters() -> None:
    """Titles, descriptions, field names and values, footers and authors all count."""
    at_limit = [
        {"title": text(200), "description": text(3800)},
        {"description": text(1000), "fields": [{"name": text(100), "value": text(700)}]},
        {"footer": {"text": text(100)}, "author": {"name": text(100)}},
    ]
    assert embed_problems(at_limit) == []
    past = [*at_limit, {"title": "x"}]
    assert embed_problems(past) == ["embeds: 6001 characters in all, at most 6000"]


# -- components ----------------------------------------------------------------------------------


def test_at_most_5_rows_of_at_most_5_buttons() -> None:
    rows = [row(*(button(f"{r}-{b}") for b in range(5))) for r in range(5)]
    assert component_problems(rows) == []
    assert component_problems([*rows, row(button("extra"))]) == ["components: 6 rows, at most 5"]
    six = row(*(button(f"b{n}") for n in range(6)))
    assert component_problems([six]) == ["components[0]: 6 components, at most 5"]


def test_top_level_components_are_non_empty_action_rows() -> None:
    assert component_problems([button()]) == [
        "components[0]: top-level components must be action rows"
    ]
    assert component_problems([row()]) == [
        "components[0]: an action row needs at least one component"
    ]


def test_a_button_label_is_at_most_80_characters_and_a_button_needs_a_label_or_emoji() -> None:
    assert component_problems([row(button(label=text(80)))]) == []
    assert component_problems([row(button(label=text(81)))]) == [
        "components[0].components[0].label: 81 characters, at most 80"
    ]
    assert component_problems([row(button(label=None, emoji={"name": "🎲"}))]) == []
    assert component_problems([row(button(label=None))]) == [
        "components[0].components[0]: a button needs a label or an emoji"
    ]


def test_a_custom_id_has_1_to_100_characters() -> None:
    assert component_problems([row(button(text(100)))]) == []
    for bad in (text(101), ""):
        assert component_problems([row(button(bad))]) == [
            "components[0].components[0].custom_id: must be 1 to 100 characters"
        ]
    assert component_problems([row({"type": 2, "style": 1, "label": "no id"})]) == [
        "components[0].components[0].custom_id: must be 1 to 100 characters"
    ]


def test_custom_ids_are_unique_across_the_whole_message() -> None:
    assert component_problems([row(button("a"), button("b")), row(select())]) == []
    [same_row] = component_problems([row(button("a"), button("a"))])
    assert "'a' is used twice" in same_row
    [across_rows] = component_problems([row(button("s")), row(select())])
    assert across_rows.startswith("components[1].components[0].custom_id: 's' is used twice")


def test_link_buttons_have_a_url_of_at_most_512_characters_and_no_custom_id() -> None:
    link = {"type": 2, "style": 5, "label": "Rules", "url": "https://x.y/" + text(500)}
    assert component_problems([row(link)]) == []
    too_long = {**link, "url": "https://x.y/" + text(501)}
    assert component_problems([row(too_long)]) == [
        "components[0].components[0].url: a link button needs a url of 1 to 512 characters"
    ]
    assert component_problems([row({**link, "custom_id": "c"})]) == [
        "components[0].components[0].custom_id: a link button cannot have a custom_id"
    ]
    assert component_problems([row(button(url="https://x.y"))]) == [
        "components[0].components[0].url: only link buttons have a url"
    ]


def test_only_buttons_and_selects_go_in_a_message_row() -> None:
    text_input = {"type": 4, "custom_id": "t", "style": 1, "label": "Name"}
    assert component_problems([row(text_input)]) == [
        "components[0].components[0].type: 4 is not a button or a select"
    ]


# -- selects -------------------------------------------------------------------------------------


def test_a_select_is_alone_in_its_row() -> None:
    assert component_problems([row(select(), button("b"))]) == [
        "components[0]: a select must be alone in its row"
    ]


def test_a_string_select_has_1_to_25_options() -> None:
    assert component_problems([row(select(25))]) == []
    assert component_problems([row(select(26))]) == [
        "components[0].components[0].options: 26 options, 1 to 25"
    ]
    assert "components[0].components[0].options: 0 options, 1 to 25" in component_problems(
        [row(select(0))]
    )


def test_option_texts_are_at_most_100_characters_and_values_unique() -> None:
    def with_option(**option: str) -> list[dict[str, Any]]:
        return [row({"type": 3, "custom_id": "s", "options": [option]})]

    assert (
        component_problems(with_option(label=text(100), value=text(100), description=text(100)))
        == []
    )
    for key in ("label", "value", "description"):
        fields = {"label": "l", "value": "v", key: text(101)}
        assert component_problems(with_option(**fields)) == [
            f"components[0].components[0].options[0].{key}: 101 characters, at most 100"
        ]
    assert component_problems(with_option(label="", value="v")) == [
        "components[0].components[0].options[0]: label and value must not be empty"
    ]
    twice = select(2)
    twice["options"][1]["value"] = "v0"
    assert component_problems([row(twice)]) == [
        "components[0].components[0].options[1].value: 'v0' twice"
    ]


def test_a_placeholder_is_at_most_150_characters() -> None:
    assert component_problems([row(select(placeholder=text(150)))]) == []
    assert component_problems([row(select(placeholder=text(151)))]) == [
        "components[0].components[0].placeholder: more than 150 characters"
    ]


def test_min_and_max_values_stay_in_range_and_within_the_options() -> None:
    assert component_problems([row(select(25, min_values=0, max_values=25))]) == []
    assert component_problems([row(select(25, min_values=25, max_values=25))]) == []
    for low, high in ((-1, 1), (26, 26), (0, 0), (1, 26), (3, 2)):
        problems = component_problems([row(select(25, min_values=low, max_values=high))])
        assert f"min_values {low} / max_values {high} out of range" in problems[0], (low, high)
    assert component_problems([row(select(3, max_values=4))]) == [
        "components[0].components[0].max_values: 4 is more than its 3 options"
    ]
    assert component_problems([row(select(3, min_values=None, max_values=None))]) == []


def test_user_role_and_channel_selects_need_no_options() -> None:
    for kind in (5, 6, 7, 8):
        assert (
            component_problems([row({"type": kind, "custom_id": "pick", "max_values": 25})]) == []
        )


# -- empty messages and edits --------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"content": "hi"},
        {"embeds": [{"title": "t"}]},
        {"components": [row(button())]},
        {"attachments": [{"id": "0", "filename": "a.png"}]},
        {"sticker_ids": ["1"]},
        {"poll": {"question": {"text": "?"}}},
    ],
)
def test_a_new_message_needs_some_content(body: dict[str, Any]) -> None:
    assert message_problems(body) == []


@pytest.mark.parametrize("body", [{}, {"content": ""}, {"content": None, "embeds": []}])
def test_an_empty_new_message_is_refused_with_50006(body: dict[str, Any]) -> None:
    problems = message_problems(body)
    assert problems == [EMPTY_MESSAGE_PROBLEM]
    assert refusal(problems) == {"code": EMPTY_MESSAGE, "message": "Cannot send an empty message"}


def test_an_edit_may_send_only_what_changes_but_may_not_empty_the_message() -> None:
    current = {"content": "table", "embeds": [], "components": [row(button())]}
    assert message_problems({"components": []}, creating=False) == []
    assert message_problems({"content": ""}, creating=False, current=current) == []
    assert message_problems({"components": []}, creating=False, current=current) == []
    emptied = message_problems({"content": "", "components": []}, creating=False, current=current)
    assert emptied == [EMPTY_MESSAGE_PROBLEM]
    attachment_only = {"content": "", "attachments": [{"id": "1"}]}
    assert message_problems({"content": None}, creating=False, current=attachment_only) == []


def test_callbacks_check_message_and_update_types_only() -> None:
    assert callback_problems({"type": 4, "data": {"content": text(2001)}}) == [
        "content: 2001 characters, at most 2000"
    ]
    assert callback_problems({"type": 4}) == [EMPTY_MESSAGE_PROBLEM]
    assert callback_problems({"type": 7, "data": {"components": []}}) == []
    assert callback_problems(
        {"type": 7, "data": {"content": ""}}, current={"content": "only text"}
    ) == [EMPTY_MESSAGE_PROBLEM]
    for other in (1, 5, 6, 8, 9):
        assert callback_problems({"type": other, "data": {"content": text(3000)}}) == []


def test_a_refusal_is_discord_s_invalid_form_body() -> None:
    problems = ["content: 2001 characters, at most 2000", EMPTY_MESSAGE_PROBLEM]
    answer = refusal(problems)
    assert (answer["code"], answer["message"]) == (INVALID_FORM_BODY, "Invalid Form Body")
    assert [error["message"] for error in answer["errors"]["_errors"]] == problems


# -- Components V2 -------------------------------------------------------------------------------

V2 = 1 << 15


def text_display(content: str = "Alice's turn") -> dict[str, Any]:
    return {"type": 10, "content": content}


def container(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 17, "accent_color": 0xC9A227, "components": list(components)}


def gallery(count: int = 1, description: str = "the table") -> dict[str, Any]:
    item = {"media": {"url": "attachment://table.png"}, "description": description}
    return {"type": 12, "items": [item] * count}


def v2(*components: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"flags": V2, "components": list(components), **fields}


def test_a_v2_layout_of_container_text_gallery_separator_and_rows_is_accepted() -> None:
    section = {"type": 9, "components": [text_display()], "accessory": button("hand")}
    layout = container(
        gallery(),
        text_display(),
        {"type": 14, "divider": True, "spacing": 1},
        section,
        row(button("a"), button("b")),
    )
    assert message_problems(v2(layout)) == []


def test_a_v2_message_has_no_content_or_embeds() -> None:
    assert message_problems(v2(text_display(), content="x")) == [
        "content: a V2 message (IS_COMPONENTS_V2) cannot have content"
    ]
    assert message_problems(v2(text_display(), embeds=[{"title": "t"}])) == [
        "embeds: a V2 message (IS_COMPONENTS_V2) cannot have embeds"
    ]


def test_v2_components_need_the_flag_and_classic_rows_stay_top_level_only() -> None:
    assert message_problems({"components": [text_display()]}) == [
        "components[0]: top-level components must be action rows"
    ]
    assert message_problems(v2(button("loose"))) == ["components[0].type: 2 is not allowed here"]


def test_a_v2_message_holds_at_most_40_components_nested_ones_included() -> None:
    rows = [row(*(button(f"b{r}.{n}") for n in range(4))) for r in range(7)]  # 7 + 28
    at_limit = v2(container(*rows, text_display(), text_display(), text_display(), text_display()))
    assert message_problems(at_limit) == []  # 1 + 35 + 4 = 40
    past = v2(container(*rows, *(text_display() for _ in range(5))))
    assert message_problems(past) == ["components: 41 components in all, at most 40"]


def test_the_text_displays_of_a_v2_message_hold_4000_characters_together() -> None:
    assert message_problems(v2(text_display(text(2000)), text_display(text(2000)))) == []
    assert message_problems(v2(text_display(text(2000)), text_display(text(2001)))) == [
        "components: 4001 characters of text displays, at most 4000"
    ]


def test_a_section_has_one_to_three_texts_and_an_accessory() -> None:
    four = {"type": 9, "components": [text_display()] * 4, "accessory": button()}
    bare = {"type": 9, "components": [text_display()]}
    assert message_problems(v2(four)) == ["components[0].components: 4 texts, 1 to 3"]
    assert message_problems(v2(bare)) == [
        "components[0].accessory: a section needs a button or a thumbnail"
    ]


def test_a_gallery_has_one_to_ten_items_with_descriptions_of_1024_characters() -> None:
    assert message_problems(v2(gallery(10, text(1024)))) == []
    assert message_problems(v2(gallery(11))) == ["components[0].items: 11 items, 1 to 10"]
    assert message_problems(v2(gallery(1, text(1025)))) == [
        "components[0].items[0].description: 1025 characters, at most 1024"
    ]


def test_custom_ids_are_unique_across_every_container_of_a_v2_message() -> None:
    twice = v2(container(row(button("same"))), container(row(button("same"))))
    assert message_problems(twice) == [
        "components[1].components[0].components[0].custom_id: 'same' is used twice in this message"
    ]


def test_an_edit_makes_a_message_v2_only_by_clearing_its_content_and_embeds() -> None:
    classic = {"content": "", "embeds": [{"title": "Table"}], "components": [row(button())]}
    kept_embed = message_problems(v2(container(text_display())), creating=False, current=classic)
    assert kept_embed == ["embeds: a V2 message (IS_COMPONENTS_V2) cannot have embeds"]
    cleared = v2(container(text_display()), content="", embeds=[])
    assert message_problems(cleared, creating=False, current=classic) == []


def test_the_v2_flag_is_never_removed_by_an_edit() -> None:
    current = {"flags": V2, "components": [text_display()]}
    assert message_problems(
        {"flags": 0, "components": [row(button())]}, creating=False, current=current
    ) == ["flags: IS_COMPONENTS_V2 cannot be removed from a message"]
    # An edit of a V2 message is checked as V2 even when it does not repeat the flag.
    assert message_problems({"content": "x"}, creating=False, current=current) == [
        "content: a V2 message (IS_COMPONENTS_V2) cannot have content"
    ]
