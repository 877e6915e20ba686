"""Who travels (handlers/extract/party.py): booking for others, group words, kin and ages."""

import re

import pytest

from handlers.extract.party import (
    ages_question,
    asks_about_those_going,
    children_named,
    couple_trip,
    family_unsplit,
    read_party,
    visited_masked,
)


@pytest.mark.parametrize(
    ("text", "adults", "children"),
    [
        ("booking for my wife and 2 kids, boston to orlando", 1, 2),  # the writer stays home
        ("can you book my parents from tampa to boston", 2, None),
        ("its for my boss, he's flying nyc to chicago", 1, None),
        ("booking for me and my wife", 2, None),  # the writer said they go
        ("4 guys and 2 kids, chicago to denver", 4, 2),  # the guys are the grown-ups
        ("me and 3 guys, golf trip", 4, None),
        ("6 girls for a bachelorette", 6, None),
        ("2 adults and 3 boys", 2, 3),
        ("traveling w my mom, boston to dc", 2, None),
        ("me and the wife and the grandkids (8 and 11)", 2, 2),
        ("my wife and i and our twins (6)", 2, 2),
        ("book for my daughter (she's 19) from denver", 1, None),  # 19 is a grown-up
        ("looking to take the kids (8 and 11) to orlando", 1, 2),  # the writer takes them
        ("bringing the 2 kids to denver in may", 1, 2),
        ("my wife is taking the kids (8 and 11) to orlando", None, 2),  # she does: who else goes is asked
        ("my company is sending me to a conference in vegas", 1, None),  # sent: the writer goes
        ("my manager wants me to fly to austin on the 14th", 1, None),
        ("they're sending me and my wife to vegas", 2, None),
    ],
)
def test_who_travels(text, adults, children):
    party = read_party(text)
    assert (party["adults"], party["children"]) == (adults, children)


def test_twins_of_one_age_are_two_ages():
    assert read_party("my wife and i and our twins (6)")["child_ages"] == [6, 6]


@pytest.mark.parametrize(
    ("text", "rooms"),
    [
        ("me, my wife and 3 kids (6, 10, 14), separate room for the kids", 2),
        ("4 adults, need 2 rooms", 2),
        ("me, my wife and 3 kids", None),
    ],
)
def test_rooms(text, rooms):
    assert read_party(text)["rooms"] == rooms


@pytest.mark.parametrize(
    ("text", "adults", "children"),
    [
        ("3 couples, denver to cabo", 6, None),
        ("a couple, nyc to paris april 4-11", 2, None),
        ("a couple of days in denver", None, None),
        ("2 of us + a 5 yr old, boston to dc", 2, 1),  # the child comes on top of the two
        ("4 of us including a 5 yr old", 3, 1),
        ("me + my two teenagers (15 & 17)", 1, 2),
        ("flying with my elderly father, phoenix to chicago", 2, None),
        ("from ewr to cancun for me and the mrs", 2, None),
        ("me, my sis and her bf, chicago to miami", 3, None),
        ("2 adults and 2 seniors, tampa to nyc", 4, None),
    ],
)
def test_couples_counts_on_top_and_kin_with_a_word_before(text, adults, children):
    party = read_party(text)
    assert (party["adults"], party["children"]) == (adults, children)


def test_a_family_of_n_with_nobody_named_a_child_is_counted_and_said():
    assert family_unsplit("family of 5, chicago to orlando") == 5
    assert family_unsplit("family of 5 (2 adults, 3 kids)") is None
    assert family_unsplit("family of 4: me, my wife and our kids 3 and 7") is None


@pytest.mark.parametrize(
    ("text", "adults"),
    [
        ("grandma and grandpa are flying from tampa to boston", 2),  # kin without "my", opening the message
        ("mom and dad need flights detroit to phoenix", 2),
        ("booking for my mom and dad, cleveland to orlando", 2),  # dad is "my" dad too
        ("me, my mom and dad, boston to denver", 3),
        ("me and my bff, nyc to miami", 2),
        ("flying with my bff from chicago to vegas", 2),
        ("my wife and my mom from boston", 2),
        ("flying to see mom and dad in boston", None),  # the ones visited do not travel
        ("visiting my mom and dad in boston", None),
        ("my wife and kids, boston to orlando", None),  # whether the writer comes too is asked
        ("mom, dad and me, boston to denver", 3),  # a list that ends with the writer
        ("my wife, kids and me", 2),
        ("visiting mom and me", None),
    ],
)
def test_kin_named_in_a_list_travel_together(text, adults):
    assert read_party(text)["adults"] == adults


@pytest.mark.parametrize(
    ("text", "children", "infants", "ages"),
    [
        ("me and my 2 little ones, 3 and 6", 2, None, [3, 6]),
        ("2 adults 3 kids ages 10 months, 3 and 5", 2, 1, [3, 5]),  # 10 months is a lap infant
        ("2 adults and 3 kids, ages 8 months, 4 and 9", 2, 1, [4, 9]),
        ("2 kids (ages 3 and 18 months)", 1, 1, [3]),
        ("my daughter shes 9 and 2 adults", 1, None, [9]),  # "2 adults" counts people, not an age
        ("kids 3, 5 and 2 adults", 2, None, [3, 5]),
        ("just me and the twins (they're 7)", 2, None, [7, 7]),  # one age for both
    ],
)
def test_ages_after_little_ones_and_ages_in_months_within_a_list(text, children, infants, ages):
    party = read_party(text)
    assert (party["children"], party["infants"], party["child_ages"]) == (children, infants, ages)


def test_a_couples_trip_is_two_travellers_and_says_why():
    assert read_party("honeymoon in st lucia from boston")["adults"] == 2
    assert couple_trip("honeymoon in st lucia from boston") == "honeymoon"
    assert couple_trip("our honeymoon, 3 of us") is None  # counted otherwise: nothing to tell
    assert read_party("honeymoon for me, my wife and our baby")["adults"] == 2


def test_children_listed_before_the_writer_travel_with_them():
    party = read_party("my son and daughter and i, nyc to la")
    assert (party["adults"], party["children"]) == (1, 2)
    assert read_party("my wife, kids and me")["children"] is None  # "kids" says no count


@pytest.mark.parametrize(
    ("text", "adults", "children"),
    [
        ("4 college students from austin to cancun", 4, None),  # students on their own are grown-ups
        ("2 students, boston to montreal", 2, None),
        ("me and 3 other grad students", 4, None),
        ("12 students (14-15) plus 2 teachers", 2, 12),  # a school group: its ages, its teachers
        ("30 high school students and 4 chaperones", 4, 30),
        ("25 eighth graders", None, 25),
        ("3 students (19, 20 and 21)", 3, None),
    ],
)
def test_students_are_grown_ups_unless_a_school_group(text, adults, children):
    party = read_party(text)
    assert (party["adults"], party["children"]) == (adults, children)


@pytest.mark.parametrize(
    ("text", "adults"),
    [
        ("Hi, I need to book travel for our VP: Chicago to NYC", 1),  # the writer books, the VP flies
        ("I want to book a flight for my mom and dad", 2),
        ("I need to book flights for my wife and me", 2),  # ...unless the writer says they go
        ("I need to book a trip for my wife and I", 2),
    ],
)
def test_booking_for_others(text, adults):
    assert read_party(text)["adults"] == adults


@pytest.mark.parametrize(
    ("text", "adults", "children"),
    [
        ("me and my grown son, phoenix to chicago", 2, None),  # a grown child is a grown-up
        ("my wife, our adult daughter and I", 3, None),
        ("me and my son, phoenix to chicago", 1, 1),  # a son of no stated age stays a child
    ],
)
def test_grown_children_are_grown_ups(text, adults, children):
    party = read_party(text)
    assert (party["adults"], party["children"]) == (adults, children)


def test_a_child_named_by_age_starts_the_list_of_who_comes():
    party = read_party("flying w/ my 2 yr old and husband to phoenix")
    assert (party["adults"], party["children"], party["child_ages"]) == (2, 1, [2])


@pytest.mark.parametrize(
    ("text", "adults"),
    [
        ("trip for my parents (not me): tampa to boston", 2),
        ("flights for my wife and my sister, I'm not going", 2),
        ("flights for my wife and my sister and me", 3),
    ],
)
def test_the_writer_who_stays_home_is_not_counted(text, adults):
    assert read_party(text)["adults"] == adults


@pytest.mark.parametrize(
    "text",
    [
        "my family is in tulsa and i want to go home for xmas",
        "visiting my daughter in raleigh, staying with her",
        "my brother is in denver so I'm flying out to see him",
    ],
)
def test_the_people_who_live_there_do_not_travel(text):
    masked = visited_masked(text)
    assert read_party(masked)["adults"] is None
    assert not re.search(r"\b(?:family|him|her)\b", masked)


@pytest.mark.parametrize(
    ("text", "adults", "children", "ages"),
    [
        ("me and my twin boys (10) + grandma", 2, 2, [10, 10]),  # the twins are two, grandma comes too
        ("my daughter (5), my wife and me", 2, 1, [5]),
        ("Munich to Vienna on the 5th of March, myself only", 1, None, None),
        ("Need flights for our 3 sales reps", 3, None, None),
    ],
)
def test_twins_staff_and_lists_after_ages(text, adults, children, ages):
    party = read_party(text)
    assert (party["adults"], party["children"], party["child_ages"]) == (adults, children, ages)


@pytest.mark.parametrize(
    ("text", "adults", "children", "ages"),
    [
        # a count before a pair word is the people: "2 parents" are two, "my parents" too
        ("family trip, 2 parents, kids are 4, 8 and 12", 2, 3, [4, 8, 12]),
        ("my parents and me, tampa to denver", 3, None, None),
        # counted people opening the message travel
        ("2 grandparents and 2 grandkids, grandkids are 6 and 10", 2, 2, [6, 10]),
        ("3 coworkers and me to austin", 4, None, None),
        # "w/" is "with": the writer goes too
        ("nyc to vegas w/ my wife", 2, None, None),
        ("lax to sfo w/my 2 kids (7, 9)", 1, 2, [7, 9]),
        # "us N" after the children is everyone; "us + kids" is a couple and the children
        ("with my 2 kids (5 and 9), just us 3", 1, 2, [5, 9]),
        ("us two + our 4 yr old", 2, 1, [4]),
        ("us + 2 kids (4, 6) boston to orlando", 2, 2, [4, 6]),
        ("just us and the 3 kids (2, 5, 8)", 2, 3, [2, 5, 8]),
        ("find us 4 star hotels in miami", None, None, None),
        # one age for twins or triplets is each one's, said once
        ("me, my husband and our twins, both 8", 2, 2, [8, 8]),
        ("me my wife and the twins, the twins are 4", 2, 2, [4, 4]),
        ("our triplets are 5, me and my wife", 2, 3, [5, 5, 5]),
        # a list of ages closed by a dash is still the list
        ("family of 5 - 2 adults and kids 3, 7, 10 - boston to denver", 2, 3, [3, 7, 10]),
    ],
)
def test_counts_said_around_the_kin(text, adults, children, ages):
    party = read_party(text)
    assert (party["adults"], party["children"], party["child_ages"]) == (adults, children, ages)


@pytest.mark.parametrize(
    ("text", "going", "question"),
    [
        ("me and my nephew going LA to NYC", 1, "How old is your nephew?"),
        ("me, my son and daughter", 2, "How old are your son and your daughter?"),
        ("my 2 nieces and me", 2, "How old are your nieces?"),
        ("my sister and her two boys", 2, "How old are her boys?"),
        ("me and the kids", 2, None),  # "the children" already says it
        ("me, my son and the kids", 3, None),  # not every child is named
    ],
)
def test_children_named_in_the_ages_question(text, going, question):
    named = children_named(text, going)
    assert (ages_question(named, going) if named else None) == question


@pytest.mark.parametrize(
    ("text", "adults", "children", "ages"),
    [
        # ages typed with spaces are ages, not the count of children
        ("me + kids 4 7 10, atlanta to nyc", 1, 3, [4, 7, 10]),
        ("we're 4 adults and 3 kids, kids are 5 8 and 13", 4, 3, [5, 8, 13]),
        ("me w/ my 2 kids 6 11", 1, 2, [6, 11]),
        ("adults 2 kids 1 3 nights in miami", 2, 1, None),  # a number of nights after the count is not an age
        # counts typed after their word, one after the other: the number closing "adults 2" is not the kids'
        ("adults 2 kids 3", 2, 3, None),
        ("kids 2 adults 4", 4, 2, None),
        ("2 adults 3 kids 2 rooms", 2, 3, None),  # each number before its word
    ],
)
def test_ages_and_counts_typed_with_spaces(text, adults, children, ages):
    party = read_party(text)
    assert (party["adults"], party["children"], party["child_ages"]) == (adults, children, ages)


@pytest.mark.parametrize(
    ("text", "adults", "children"),
    [
        # the writer goes with the people said: "coming with me", family after a bare "w/", "... too"
        ("my twin boys are 12, they're coming with me", 1, 2),
        ("going to cancun w/ hubby and our 2 kids", 2, 2),
        ("boston to denver with mom and dad", 3, None),
        ("seattle to honolulu jan 20-27, my wife too", 2, None),
        ("meeting with client in nyc", None, None),  # a bare word after "with" that is no family: not counted
        # the writer stays: they book, or the travellers come to them
        ("I need flights for my parents from detroit", 2, None),
        ("I need to book my parents, my aunt as well", 3, None),
        ("I need flights for my wife and me", 2, None),
        ("my parents are flying in to see us for xmas", 2, None),
        ("my daughter and her 2 kids are flying to visit us", 1, 2),  # a daughter with children is a grown-up
    ],
)
def test_whether_the_writer_goes_on_a_first_message(text, adults, children):
    party = read_party(text, going=False)
    assert (party["adults"], party["children"]) == (adults, children)


def test_someone_said_to_come_along_joins_those_already_going():
    # on a trip with travellers, "my wife is coming with me" is one more, added by the extractor
    assert read_party("my wife is coming with me")["adults"] == 1
    assert read_party("my wife is coming with me", going=False)["adults"] == 2


@pytest.mark.parametrize(
    ("text", "adults", "children"),
    [
        # "N of my <people>": that many of them
        ("me & 2 of my buddies", 3, None),
        ("2 of my coworkers and I", 3, None),
        ("me + 3 others", 4, None),
        # the writer said in more words: "I'm taking the ...", "I'll be traveling with ...", "just hubby and me"
        ("I'm taking the grandkids (7 and 10)", 1, 2),
        ("I'll be traveling with my 2 yo", 1, 1),
        ("I'll need flights for my parents", 2, None),  # "I'll need" books for them: the writer stays
        ("just hubby and me", 2, None),
    ],
)
def test_more_ways_of_saying_who_comes(text, adults, children):
    party = read_party(text, going=False)
    assert (party["adults"], party["children"]) == (adults, children)


@pytest.mark.parametrize(
    ("text", "rooms"),
    [
        ("a room for us and one for the kids", 2),
        ("need a room for me and another for my parents", 2),
        ("separate rooms for me and my colleague", 2),
        ("4 adults, a room each", 4),
        ("each couple gets their own room, 3 couples", 3),
        ("rooms: 3", 3),
        ("4 adults, 2 rms", 2),
        ("a 4rm suite", None),  # a kind of suite
        ("max 200 a room each night, 2 adults", None),
        ("one room for the 4 of us", 1),
    ],
)
def test_rooms_said_per_person_or_as_on_a_form(text, rooms):
    assert read_party(text, going=False)["rooms"] == rooms


@pytest.mark.parametrize(
    ("text", "adults", "children", "infants", "ages"),
    [
        ("adults 2 infants 1", 2, None, 1, None),
        ("Adults - 2 / Children - 1 (4 yrs) / Infants - 1", 2, 1, 1, [4]),
        ("seniors 2, sarasota to chicago", 2, None, None, None),
        ("pax 2+1 inf", 2, None, 1, None),  # the infant on top of the two
        ("pax: 3", 3, None, None, None),
        ("2 travelers 3 nights", 2, None, None, None),  # the nights are no count of people
        ("passengers: 2 adults 3C (5 9 11)", 2, 3, None, [5, 9, 11]),
        ("2 adults kids (8 10 14)", 2, 3, None, [8, 10, 14]),
        ("me + kids [5 7 9]", 1, 3, None, [5, 7, 9]),
        ("2 adults (flight 9 10)", 2, None, None, None),  # numbers in brackets with no child named
        ("2 adults 3 kids", 2, 3, None, None),
    ],
)
def test_counts_typed_as_on_a_form(text, adults, children, infants, ages):
    party = read_party(text, going=False)
    assert (party["adults"], party["children"], party["infants"], party["child_ages"]) == (
        adults,
        children,
        infants,
        ages,
    )


@pytest.mark.parametrize(
    ("text", "adults", "children"),
    [
        ("mom dad me and my brother, chicago to orlando", 4, None),
        ("grandma grandpa my sister and i", 4, None),
        ("me wife and 2 kids 7 and 9", 2, 2),
        ("my husband our daughter (6) and me", 2, 1),
        ("Me/wife/son(12) - ATL to MCO", 2, 1),
        ("me my wife my mother in law", 3, None),
        ("me and my wife", 2, None),
    ],
)
def test_people_listed_without_commas(text, adults, children):
    party = read_party(text, going=False)
    assert (party["adults"], party["children"]) == (adults, children)


@pytest.mark.parametrize(
    ("text", "adults", "children", "ages"),
    [
        ("my 16-year-old is flying by herself to see her dad", 1, 0, None),  # a passenger of her own
        ("booking for my son, he's 15, flying alone", 1, 0, None),
        ("my niece is 14 and flying by herself", 0, 1, [14]),  # the airline's unaccompanied-minor service
        ("the kids (8 and 16) are flying on their own", 0, 2, [8, 16]),  # the 8-year-old needs the service
        ("my 4 yo is going to fly alone", 0, 1, [4]),
        ("my daughter is flying by herself", 0, 1, None),  # no age: asked as a child alone
    ],
)
def test_who_flies_alone_by_age(text, adults, children, ages):
    party = read_party(text, going=False)
    assert (party["adults"], party["children"], party["child_ages"]) == (adults, children, ages)


@pytest.mark.parametrize(
    ("text", "about"),
    [
        ("does the baby need a seat?", True),
        ("how much is it for the toddler", True),
        ("does my 1 year old need a seat?", True),
        ("can the baby sit on my lap?", True),
        ("what if we bring our other 2 kids?", False),  # more people, not those going
        ("can my mom come too?", False),
        ("the baby needs a seat", False),  # no question
        ("is the 2nd one refundable?", False),  # nobody named
    ],
)
def test_a_question_about_a_child_going_is_no_new_party(text, about):
    current = {"party": {"travelers": {"adults": 2, "children": 0, "infants": 1}}}
    assert asks_about_those_going(text, current) is about
