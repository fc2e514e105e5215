"""Fidelity: the generated models agree with the JSON Schema validator on the pinned schema.

The oracle is jsonschema (Draft 2020-12) on ``{"$ref": "#/$defs/X", "$defs": <all defs>}``,
with a format checker for the integer formats the schema declares (int32, uint16, ...): the
schema says a ``uint32`` is a 32-bit unsigned integer, and the models enforce that range.

For every ``$def``: seeded instances drawn from the schema (support.models_samples) that the
oracle accepts must be accepted by the model and dumped back unchanged; mutants of them
(a member dropped, a wrong type, an unknown tag or enum value, a negative or out-of-range
integer) that the oracle rejects must be rejected by the model. The per-def agreement table
is printed by ``test_agreement_table`` (run with ``-s`` to see it) and written to
``$ACPGEN_FIDELITY_REPORT`` when that variable names a file.
"""

from __future__ import annotations

import json
import os
import random
import zlib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import generated_dir
from jsonschema import Draft202012Validator, FormatChecker
from pydantic import TypeAdapter, ValidationError
from support.models_samples import MUTATION_KINDS, mutants, samples

from acpgen.ir.formats import INTEGER_FORMATS as INT_FORMATS

ROOT = Path(__file__).resolve().parent.parent
INPUTS = (ROOT / "schema" / "inputs").resolve()
MESSAGES = ROOT / "tests" / "data" / "messages"
SCHEMA_PATH = INPUTS / "schema" / "v1" / "schema.json"
SAMPLES_PER_DEF = 60  # distinct valid instances wanted per def
MAX_DRAWS = 1000  # give up drawing after this many (small defs admit few distinct values)
MUTANTS_PER_DEF = 240

# Disagreements we accept, each with its reason. The test below fails if this list grows
# or if a def outside it disagrees with the oracle.
# Keys are a def name, or the name of a kind of input that no def-level test draws.
PYTHON_NAMES = "members keyed by Python name"
# None: input is read by wire names only (construction by Python names goes through
# __init__), so members keyed by Python name agree too (test_python_names_on_the_wire).
KNOWN_DISAGREEMENTS: dict[str, str] = {}
MAX_KNOWN = 0


def _load_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


SCHEMA = _load_schema()
DEFS: dict[str, Any] = SCHEMA["$defs"]


def _format_checker() -> FormatChecker:
    checker = FormatChecker(formats=())
    for fmt, (lo, hi) in INT_FORMATS.items():

        def check(value: object, lo: int = lo, hi: int = hi) -> bool:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return True  # formats constrain only the values of their type
            return lo <= value <= hi

        checker.checks(fmt)(check)
    return checker


_CHECKER = _format_checker()


@cache
def oracle(name: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": DEFS}, format_checker=_CHECKER)


@cache
def models() -> Any:
    generated_dir()  # generated now into a temporary directory, on sys.path
    import acp_v1.models as module

    return module


@cache
def adapter(name: str) -> TypeAdapter[Any]:
    return TypeAdapter(getattr(models(), name))


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value, but a boolean is never a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def model_verdict(name: str, instance: Any, by_name: bool | None = None) -> tuple[bool, str]:
    """(accepted, problem): accepted by the model, and for accepted input whether both
    the dict path and the JSON path dump back the input unchanged."""
    ta = adapter(name)
    try:
        value = ta.validate_python(instance, by_name=by_name)
    except ValidationError:
        return False, ""
    dumped = ta.dump_python(value, mode="json", by_alias=True, exclude_unset=True)
    if not same_json(dumped, instance):
        return True, f"dump differs: {dumped!r}"
    from_json = ta.validate_json(json.dumps(instance), by_name=by_name)
    dumped = ta.dump_python(from_json, mode="json", by_alias=True, exclude_unset=True)
    if not same_json(dumped, instance):
        return True, f"JSON path dump differs: {dumped!r}"
    return True, ""


class Agreement:
    def __init__(self) -> None:
        self.valid = 0
        self.valid_ok = 0
        self.invalid = 0
        self.invalid_ok = 0
        self.problems: list[str] = []
        self.rejected_by_kind: dict[str, int] = dict.fromkeys(MUTATION_KINDS, 0)


@cache
def agreement(name: str) -> Agreement:
    result = Agreement()
    oracle_v = oracle(name)
    rng = random.Random(zlib.crc32(name.encode()) ^ 0x5EED)
    valid: list[Any] = []
    seen: set[str] = set()
    for draw, instance in enumerate(samples(DEFS, name)):
        if draw >= MAX_DRAWS or len(valid) >= SAMPLES_PER_DEF:
            break
        key = json.dumps(instance, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        expected = oracle_v.is_valid(instance)
        accepted, problem = model_verdict(name, instance)
        if expected:
            valid.append(instance)
            result.valid += 1
            if accepted and not problem:
                result.valid_ok += 1
            else:
                result.problems.append(f"valid rejected/changed: {key[:200]} {problem[:200]}")
        else:
            result.invalid += 1
            if not accepted:
                result.invalid_ok += 1
            else:
                result.problems.append(f"invalid accepted: {key[:200]}")
    per_instance = max(1, MUTANTS_PER_DEF // max(1, len(valid)))
    for instance in valid:
        for kind, mutant in mutants(instance, rng, per_instance):
            key = json.dumps(mutant, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            expected = oracle_v.is_valid(mutant)
            accepted, problem = model_verdict(name, mutant)
            if expected:
                result.valid += 1
                if accepted and not problem:
                    result.valid_ok += 1
                else:
                    result.problems.append(f"valid mutant rejected/changed: {key[:200]} {problem[:200]}")
            else:
                result.invalid += 1
                result.rejected_by_kind[kind] += 1
                if not accepted:
                    result.invalid_ok += 1
                else:
                    result.problems.append(f"invalid mutant ({kind}) accepted: {key[:200]}")
    return result


@pytest.mark.parametrize("name", sorted(DEFS))
def test_def_agrees_with_schema(name: str) -> None:
    result = agreement(name)
    assert result.valid > 0, f"{name}: no valid instance was drawn"
    if name in KNOWN_DISAGREEMENTS:
        pytest.skip(f"known disagreement: {KNOWN_DISAGREEMENTS[name]}")
    assert not result.problems, f"{name}: " + "\n".join(result.problems[:5])


def test_enough_samples_per_def() -> None:
    # >= 50 valid instances per def where the def admits that many distinct values.
    few = {n: agreement(n).valid for n in DEFS if agreement(n).valid < 50}
    small = {n: c for n, c in few.items() if c < _distinct_values(n)}
    assert not small, f"defs with fewer than 50 valid instances drawn: {small}"


def _distinct_values(name: str) -> int:
    node = DEFS[name]
    consts = [m for m in node.get("oneOf", node.get("anyOf", [])) if "const" in m]
    if "enum" in node:
        return len(node["enum"])
    if consts and len(consts) == len(node.get("oneOf", node.get("anyOf", []))):
        return len(consts)
    return 50


def test_known_disagreements_do_not_grow() -> None:
    assert len(KNOWN_DISAGREEMENTS) <= MAX_KNOWN
    assert all(reason.strip() for reason in KNOWN_DISAGREEMENTS.values())
    for name in KNOWN_DISAGREEMENTS:
        assert name in DEFS or name == PYTHON_NAMES, f"stale entry {name}"


def test_every_kind_of_mutation_is_exercised() -> None:
    """Each kind of mutant (dropped member, wrong type, wrong tag / enum value, negative,
    out of range) occurs, and the oracle rejects it, often enough to mean something."""
    totals = dict.fromkeys(MUTATION_KINDS, 0)
    for name in DEFS:
        for kind, count in agreement(name).rejected_by_kind.items():
            totals[kind] += count
    thin = {kind: n for kind, n in totals.items() if n < 30}
    assert not thin, f"too few invalid mutants of these kinds: {thin} (all: {totals})"


def test_agreement_table() -> None:
    lines = [f"{'def':<45} {'valid ok':>12} {'invalid rejected':>18} {'agreement':>10}"]
    total = total_ok = 0
    for name in sorted(DEFS):
        r = agreement(name)
        n, ok = r.valid + r.invalid, r.valid_ok + r.invalid_ok
        total, total_ok = total + n, total_ok + ok
        lines.append(
            f"{name:<45} {r.valid_ok:>5}/{r.valid:<6} {r.invalid_ok:>8}/{r.invalid:<9} "
            f"{100.0 * ok / n if n else 100.0:>9.1f}%"
        )
    lines.append(f"{'TOTAL':<45} {'':>12} {'':>18} {100.0 * total_ok / total:>9.1f}%")
    table = "\n".join(lines)
    print("\n" + table)
    report = os.environ.get("ACPGEN_FIDELITY_REPORT")
    if report:
        Path(report).write_text(table + "\n", encoding="utf-8")
    assert total > 170 * 50
    assert sum(agreement(n).invalid for n in DEFS) > 1000, "too few rejected mutants to mean much"


def _python_named(value: Any) -> Any:
    """The instance with every member that has a different Python name keyed by it."""
    from acpgen.ir.naming import snake_case

    if isinstance(value, dict):
        return {snake_case(k) if k != snake_case(k) else k: _python_named(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_python_named(v) for v in value]
    return value


def test_python_names_on_the_wire() -> None:
    """Members keyed by their Python names (tool_call_id for toolCallId): the models agree
    with the schema by default (input is read by wire names), and with ``by_name=True``
    accept exactly those instances the schema accepts plus the renamed ones."""
    renamed = agree = lenient = 0
    for name in sorted(DEFS):
        oracle_v = oracle(name)
        for instance in samples_valid(name)[:10]:
            mutant = _python_named(instance)
            if mutant == instance:
                continue
            renamed += 1
            expected = oracle_v.is_valid(mutant)
            default, _ = model_verdict(name, mutant)
            agree += default == expected
            by_name, _ = model_verdict(name, mutant, by_name=True)
            lenient += by_name and not expected
            assert by_name or not default, (name, mutant)
    assert renamed > 500
    assert agree == renamed, f"the models disagree with the schema on {renamed - agree} of {renamed}"
    assert lenient > 0  # by_name=True really reads Python names


@cache
def samples_valid(name: str) -> list[Any]:
    out = []
    for draw, instance in enumerate(samples(DEFS, name)):
        if draw >= 200 or len(out) >= 10:
            break
        if oracle(name).is_valid(instance):
            out.append(instance)
    return out


def test_message_corpus_agrees_with_the_schema() -> None:
    """Real-shaped messages (tests/data/messages): the oracle and the models accept
    every one, and both the dict and the JSON path dump it back unchanged."""
    corpus = MESSAGES
    rows = [line.split("\t") for line in (corpus / "TYPES.tsv").read_text(encoding="utf-8").splitlines()[1:] if line]
    assert len(rows) == len(list(corpus.glob("*.json"))) > 0
    for filename, type_name, valid, *_ in rows:
        instance = json.loads((corpus / filename).read_text(encoding="utf-8"))
        assert oracle(type_name).is_valid(instance) is (valid == "true"), filename
        accepted, problem = model_verdict(type_name, instance)
        assert accepted is (valid == "true") and not problem, (filename, problem)
