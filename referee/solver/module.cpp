// referee.solver._native: the double-dummy search (dds.hpp) as a Python extension module.
//
// One type, ``Solver``: the trick rules of one contract (``suits``, ``keys``: the caller's tables) and the
// number of decks, with a transposition table of its own. ``Solver.solve`` checks each position it is given
// and answers for each, with the GIL released and the solver's lock held (one search at a time per solver).
// A position that cannot be one raises ``referee.solver.errors.SolverInputError`` naming what is wrong, a
// search that reaches its node limit ``SearchLimitError``; nothing here aborts the process.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "dds.hpp"

namespace {

PyObject* InputError = nullptr;  // referee.solver.errors.SolverInputError
PyObject* LimitError = nullptr;  // referee.solver.errors.SearchLimitError

enum Mode { VALUE = 0, CARD_VALUES = 1, CLAIM_HOLDS = 2, CLAIM_CARD = 3 };

struct Core {
    dds::Tables tables;
    int copies;
    int table_bits;
    std::unique_ptr<dds::TranspositionTable> table;  // made at the first search
    std::mutex lock;
};

struct SolverObject {
    PyObject_HEAD Core* core;
};

std::string card_text(int code) {
    static const char ranks[] = "789TJQKA", suits[] = "SHDC";
    return std::to_string(code) + " (" + ranks[code & 7] + suits[code >> 3] + ")";
}

std::string cards_text(int n) { return std::to_string(n) + (n == 1 ? " card" : " cards"); }

// ``obj`` as an int within [low, high], or false with ``what`` named in the error.
bool int_in(PyObject* obj, long low, long high, const std::string& what, int& out, std::string& error) {
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        error = what + " must be an int, got " + Py_TYPE(obj)->tp_name;
        return false;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(obj, &overflow);
    if (overflow || v < low || v > high) {
        PyObject* text = PyObject_Repr(obj);
        const char* shown = text ? PyUnicode_AsUTF8(text) : "?";
        error = what + " is " + (shown ? shown : "?") + ", not in " + std::to_string(low) + ".." + std::to_string(high);
        Py_XDECREF(text);
        PyErr_Clear();
        return false;
    }
    out = static_cast<int>(v);
    return true;
}

// A sequence of ints within [low, high].
bool ints_in(PyObject* obj, long low, long high, const std::string& what, std::vector<int>& out, std::string& error) {
    PyObject* seq = PySequence_Fast(obj, "");
    if (!seq) {
        PyErr_Clear();
        error = what + " must be a sequence of ints, got " + Py_TYPE(obj)->tp_name;
        return false;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 64) {
        Py_DECREF(seq);
        error = what + " has " + std::to_string(n) + " entries, more than any hand or trick holds";
        return false;
    }
    PyObject** items = PySequence_Fast_ITEMS(seq);
    out.resize(static_cast<size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i)
        if (!int_in(items[i], low, high, what + "[" + std::to_string(i) + "]", out[static_cast<size_t>(i)], error)) {
            Py_DECREF(seq);
            return false;
        }
    Py_DECREF(seq);
    return true;
}

// What the positions of one call share: the seats in play, the seat to act, the trick, the side.
struct Shared {
    std::vector<int> active, trick, side;
    int to_act = 0;
    int seats = 0;  // every seat of the game, in play or not
};

// One position from one world's hands, checked against everything a hand in play must satisfy.
bool make_position(const Shared& sh, const std::vector<std::vector<int>>& hands, int copies, dds::Position& p,
                   std::string& error) {
    const int seats = static_cast<int>(hands.size());
    if (seats != sh.seats) {
        error = "the hands are of " + std::to_string(seats) + " seats, where the position has " +
                std::to_string(sh.seats);
        return false;
    }
    p = dds::Position();
    p.k = static_cast<int>(sh.active.size());
    int index_of[dds::MAX_SEATS];
    for (int s = 0; s < seats; ++s) index_of[s] = -1;
    for (int i = 0; i < p.k; ++i) index_of[sh.active[static_cast<size_t>(i)]] = i;
    p.to_act = index_of[sh.to_act];
    p.trick_len = static_cast<int>(sh.trick.size());
    for (int i = 0; i < p.trick_len; ++i) p.trick[i] = static_cast<uint8_t>(sh.trick[static_cast<size_t>(i)]);
    int copies_seen[dds::CODES] = {};
    for (int c : sh.trick) ++copies_seen[c];
    for (int i = 0; i < p.k; ++i) {
        for (int c : hands[static_cast<size_t>(sh.active[static_cast<size_t>(i)])]) {
            ++p.count[i][c];
            ++copies_seen[c];
        }
    }
    for (int c = 0; c < dds::CODES; ++c)
        if (copies_seen[c] > copies) {
            error = "card " + card_text(c) + " is there " + std::to_string(copies_seen[c]) +
                    " times (in the hands in play and the trick), more than the " + std::to_string(copies) +
                    " deck(s) hold";
            return false;
        }
    // the seats that played to the trick hold one card fewer than the seats still to play it
    const auto size = [&](int i) { return static_cast<int>(hands[static_cast<size_t>(sh.active[static_cast<size_t>(i)])].size()); };
    const int left = size(p.to_act);
    if (left == 0) {
        error = "seat " + std::to_string(sh.to_act) + ", to act, holds no card: there is no legal card";
        return false;
    }
    for (int j = 0; j < p.k; ++j) {
        int i = (p.to_act + j) % p.k;
        bool played = j >= p.k - p.trick_len;
        int expected = played ? left - 1 : left;
        if (size(i) != expected) {
            error = "seat " + std::to_string(sh.active[static_cast<size_t>(i)]) + " holds " + cards_text(size(i)) +
                    ", not " + std::to_string(expected) + " (seat " + std::to_string(sh.to_act) + ", to act, holds " +
                    std::to_string(left) + (played ? ", and this seat has played to the trick)" : ")");
            return false;
        }
    }
    bool any = false;
    for (int s : sh.side)
        if (index_of[s] >= 0) {
            p.side[index_of[s]] = true;
            any = true;
        }
    if (!any) {
        error = "no seat of the side whose tricks are counted is in play";
        return false;
    }
    return true;
}

bool make_shared(PyObject* seats_obj, PyObject* active_obj, PyObject* to_act_obj, PyObject* trick_obj,
                 PyObject* side_obj, Shared& sh, std::string& error) {
    if (!int_in(seats_obj, 2, dds::MAX_SEATS, "the number of seats", sh.seats, error)) return false;
    const int last = sh.seats - 1;
    if (!ints_in(active_obj, 0, last, "active", sh.active, error)) return false;
    if (sh.active.size() < 2) {
        error = "a trick needs at least two seats in play; active is " + std::to_string(sh.active.size());
        return false;
    }
    bool seen[dds::MAX_SEATS] = {};
    for (int s : sh.active) {
        if (seen[s]) {
            error = "seat " + std::to_string(s) + " is in active twice";
            return false;
        }
        seen[s] = true;
    }
    if (!int_in(to_act_obj, 0, last, "to_act", sh.to_act, error)) return false;
    if (!seen[sh.to_act]) {
        error = "seat " + std::to_string(sh.to_act) + ", to act, is not in play (it sits out)";
        return false;
    }
    if (!ints_in(trick_obj, 0, dds::CODES - 1, "the trick's card", sh.trick, error)) return false;
    if (sh.trick.size() >= sh.active.size()) {
        error = "the trick holds " + std::to_string(sh.trick.size()) + " cards, but a trick of " +
                std::to_string(sh.active.size()) + " seats is complete at " + std::to_string(sh.active.size());
        return false;
    }
    if (!ints_in(side_obj, 0, last, "side", sh.side, error)) return false;
    return true;
}

bool read_hands(PyObject* world, int seats, std::vector<std::vector<int>>& hands, std::string& error) {
    PyObject* seq = PySequence_Fast(world, "");
    if (!seq) {
        PyErr_Clear();
        error = std::string("the hands must be a sequence of hands, got ") + Py_TYPE(world)->tp_name;
        return false;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != seats) {
        Py_DECREF(seq);
        error = "there are " + std::to_string(n) + " hands for " + std::to_string(seats) + " seats";
        return false;
    }
    hands.resize(static_cast<size_t>(n));
    for (Py_ssize_t s = 0; s < n; ++s)
        if (!ints_in(PySequence_Fast_GET_ITEM(seq, s), 0, dds::CODES - 1, "card of seat " + std::to_string(s),
                     hands[static_cast<size_t>(s)], error)) {
            Py_DECREF(seq);
            return false;
        }
    Py_DECREF(seq);
    return true;
}

struct Answer {
    int value = 0;
    std::vector<int> cards, values;
    bool aborted = false;
};

PyObject* answer_object(int mode, const Answer& a) {
    switch (mode) {
        case VALUE:
            return PyLong_FromLong(a.value);
        case CLAIM_HOLDS:
            return PyBool_FromLong(a.value);
        case CLAIM_CARD:
            if (a.value < 0) Py_RETURN_NONE;
            return PyLong_FromLong(a.value);
        default: {
            PyObject* d = PyDict_New();
            if (!d) return nullptr;
            for (size_t i = 0; i < a.cards.size(); ++i) {
                PyObject* key = PyLong_FromLong(a.cards[i]);
                PyObject* val = PyLong_FromLong(a.values[i]);
                if (!key || !val || PyDict_SetItem(d, key, val) < 0) {
                    Py_XDECREF(key);
                    Py_XDECREF(val);
                    Py_DECREF(d);
                    return nullptr;
                }
                Py_DECREF(key);
                Py_DECREF(val);
            }
            return d;
        }
    }
}

int Solver_init(SolverObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kwlist[] = {"suits", "keys", "copies", "table_bits", nullptr};
    PyObject *suits_obj, *keys_obj;
    int copies, table_bits = 15;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOi|i", const_cast<char**>(kwlist), &suits_obj, &keys_obj, &copies,
                                     &table_bits))
        return -1;
    std::string error;
    std::vector<int> suits;
    int keys[dds::SUITS][dds::CODES];
    if (!ints_in(suits_obj, -1000, 1000, "suits", suits, error)) {
        PyErr_SetString(InputError, error.c_str());
        return -1;
    }
    if (suits.size() != dds::CODES) {
        PyErr_Format(InputError, "suits has %zd entries: one for each of the 32 card codes is needed", suits.size());
        return -1;
    }
    PyObject* rows = PySequence_Fast(keys_obj, "keys must be a sequence of four rows");
    if (!rows) return -1;
    if (PySequence_Fast_GET_SIZE(rows) != dds::SUITS) {
        PyErr_Format(InputError, "keys has %zd rows: one for each suit led (4) is needed", PySequence_Fast_GET_SIZE(rows));
        Py_DECREF(rows);
        return -1;
    }
    for (int led = 0; led < dds::SUITS; ++led) {
        std::vector<int> row;
        if (!ints_in(PySequence_Fast_GET_ITEM(rows, led), -100000, 100000, "keys[" + std::to_string(led) + "]", row,
                     error) ||
            (row.size() != dds::CODES &&
             (error = "keys[" + std::to_string(led) + "] has " + std::to_string(row.size()) +
                      " entries: one for each of the 32 card codes is needed",
              true))) {
            PyErr_SetString(InputError, error.c_str());
            Py_DECREF(rows);
            return -1;
        }
        for (int c = 0; c < dds::CODES; ++c) keys[led][c] = row[static_cast<size_t>(c)];
    }
    Py_DECREF(rows);
    if (copies < 1 || copies > dds::MAX_COPIES) {
        PyErr_Format(InputError, "copies is %d: a game has 1 to %d decks", copies, dds::MAX_COPIES);
        return -1;
    }
    if (table_bits < 4 || table_bits > 24) {
        PyErr_Format(InputError, "table_bits is %d, not in 4..24", table_bits);
        return -1;
    }
    auto core = std::make_unique<Core>();
    if (!dds::Tables::make(suits.data(), keys, core->tables, error)) {
        PyErr_SetString(InputError, error.c_str());
        return -1;
    }
    core->copies = copies;
    core->table_bits = table_bits;
    delete self->core;
    self->core = core.release();
    return 0;
}

void Solver_dealloc(SolverObject* self) {
    delete self->core;
    Py_TYPE(self)->tp_free(reinterpret_cast<PyObject*>(self));
}

PyObject* Solver_new(PyTypeObject* type, PyObject*, PyObject*) {
    SolverObject* self = reinterpret_cast<SolverObject*>(type->tp_alloc(type, 0));
    if (self) self->core = nullptr;
    return reinterpret_cast<PyObject*>(self);
}

PyObject* Solver_solve(SolverObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kwlist[] = {"mode", "worlds", "seats", "active", "to_act", "trick", "side", "node_limit", nullptr};
    int mode;
    PyObject *worlds_obj, *seats_obj, *active_obj, *to_act_obj, *trick_obj, *side_obj;
    unsigned long long node_limit;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOOOOOK", const_cast<char**>(kwlist), &mode, &worlds_obj,
                                     &seats_obj, &active_obj, &to_act_obj, &trick_obj, &side_obj, &node_limit))
        return nullptr;
    Core* core = self->core;
    if (!core) {
        PyErr_SetString(PyExc_RuntimeError, "the solver was not initialised");
        return nullptr;
    }
    if (mode < VALUE || mode > CLAIM_CARD) {
        PyErr_Format(PyExc_ValueError, "mode %d is not one of 0..3", mode);
        return nullptr;
    }
    std::string error;
    Shared sh;
    if (!make_shared(seats_obj, active_obj, to_act_obj, trick_obj, side_obj, sh, error)) {
        PyErr_SetString(InputError, error.c_str());
        return nullptr;
    }
    PyObject* worlds = PySequence_Fast(worlds_obj, "worlds must be a sequence of hands");
    if (!worlds) return nullptr;
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(worlds);
    std::vector<dds::Position> positions(static_cast<size_t>(count));
    std::vector<std::vector<int>> hands;
    for (Py_ssize_t w = 0; w < count; ++w) {
        if (!read_hands(PySequence_Fast_GET_ITEM(worlds, w), sh.seats, hands, error) ||
            !make_position(sh, hands, core->copies, positions[static_cast<size_t>(w)], error)) {
            if (count > 1) error = "world " + std::to_string(w) + ": " + error;
            PyErr_SetString(InputError, error.c_str());
            Py_DECREF(worlds);
            return nullptr;
        }
    }
    Py_DECREF(worlds);
    if (mode == CLAIM_CARD)
        for (size_t w = 0; w < positions.size(); ++w)
            if (!positions[w].side[positions[w].to_act]) {
                PyErr_Format(InputError, "seat %d, to act, does not play for the side that claims", sh.to_act);
                return nullptr;
            }

    std::vector<Answer> answers(positions.size());
    unsigned long long nodes = 0;
    bool out_of_memory = false;
    Py_BEGIN_ALLOW_THREADS;
    {
        std::lock_guard<std::mutex> guard(core->lock);
        try {
            if (!core->table) core->table = std::make_unique<dds::TranspositionTable>(core->table_bits);
            core->table->next_generation();  // the worlds of one call share what they find, and no more
            for (size_t w = 0; w < positions.size(); ++w) {
                dds::Search search(core->tables, *core->table, positions[w], node_limit ? node_limit : ~0ULL);
                Answer& a = answers[w];
                switch (mode) {
                    case VALUE:
                        a.value = search.value();
                        break;
                    case CLAIM_HOLDS:
                        a.value = search.reaches(positions[w].tricks_left());
                        break;
                    case CLAIM_CARD:
                        a.value = search.claim_card();
                        break;
                    default:
                        search.card_values(a.cards, a.values);
                }
                nodes += search.nodes;
                if (search.aborted) {
                    a.aborted = true;
                    break;
                }
            }
        } catch (const std::bad_alloc&) {
            out_of_memory = true;
        }
    }
    Py_END_ALLOW_THREADS;
    if (out_of_memory) return PyErr_NoMemory();
    PyObject* results = PyList_New(static_cast<Py_ssize_t>(answers.size()));
    if (!results) return nullptr;
    for (size_t w = 0; w < answers.size(); ++w) {
        if (answers[w].aborted) {
            Py_DECREF(results);
            std::string text = "the search reached its limit of " + std::to_string(node_limit) + " nodes" +
                               (count > 1 ? " in world " + std::to_string(w) : "");
            PyObject* exc = PyObject_CallFunction(LimitError, "sK", text.c_str(), nodes);
            if (exc) {
                PyErr_SetObject(LimitError, exc);
                Py_DECREF(exc);
            }
            return nullptr;
        }
        PyObject* item = answer_object(mode, answers[w]);
        if (!item) {
            Py_DECREF(results);
            return nullptr;
        }
        PyList_SET_ITEM(results, static_cast<Py_ssize_t>(w), item);
    }
    return Py_BuildValue("(NK)", results, nodes);
}

PyObject* Solver_get_copies(SolverObject* self, void*) { return PyLong_FromLong(self->core ? self->core->copies : 0); }

PyObject* Solver_get_trump(SolverObject* self, void*) {
    if (!self->core || self->core->tables.trump < 0) Py_RETURN_NONE;
    return PyLong_FromLong(self->core->tables.trump);
}

PyMethodDef Solver_methods[] = {
    {"solve", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(Solver_solve)),
     METH_VARARGS | METH_KEYWORDS,
     "solve(mode, worlds, seats, active, to_act, trick, side, node_limit) -> (answers, nodes)\n\n"
     "mode 0: the side's tricks; 1: {card: the side's tricks after it} for every legal card; 2: whether the side\n"
     "takes every trick left; 3: a card after which it does, or None. One answer per world (its hands)."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef Solver_getset[] = {
    {"copies", reinterpret_cast<getter>(Solver_get_copies), nullptr, "copies of each card (decks)", nullptr},
    {"trump", reinterpret_cast<getter>(Solver_get_trump), nullptr, "the effective trump suit, or None", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject SolverType = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "_native",
                          "The compiled double-dummy search of referee.solver (use referee.solver, not this).", -1,
                          nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__native(void) {
    SolverType.tp_name = "referee.solver._native.Solver";
    SolverType.tp_basicsize = sizeof(SolverObject);
    SolverType.tp_flags = Py_TPFLAGS_DEFAULT;
    SolverType.tp_doc = "Solver(suits, keys, copies, table_bits=15): the double-dummy search of one contract's trick rules";
    SolverType.tp_new = Solver_new;
    SolverType.tp_init = reinterpret_cast<initproc>(Solver_init);
    SolverType.tp_dealloc = reinterpret_cast<destructor>(Solver_dealloc);
    SolverType.tp_methods = Solver_methods;
    SolverType.tp_getset = Solver_getset;
    if (PyType_Ready(&SolverType) < 0) return nullptr;
    PyObject* errors = PyImport_ImportModule("referee.solver.errors");
    if (!errors) return nullptr;
    InputError = PyObject_GetAttrString(errors, "SolverInputError");
    LimitError = PyObject_GetAttrString(errors, "SearchLimitError");
    Py_DECREF(errors);
    if (!InputError || !LimitError) return nullptr;
    PyObject* m = PyModule_Create(&module_def);
    if (!m) return nullptr;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", reinterpret_cast<PyObject*>(&SolverType)) < 0) {
        Py_DECREF(&SolverType);
        Py_DECREF(m);
        return nullptr;
    }
    return m;
}
