"""Writes the synthetic result files of this folder (run once, with pandas + openpyxl):

    python make_synthetic.py OUT_DIR

then VLMEvalKit's own evaluate graded them (see README.md). Fixed content, no randomness.
"""
import json
import sys
from pathlib import Path

import pandas as pd

out = Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)

# --- VsiSuperCount_10mins: numeric answers, rules (can_match_na + MRA) -------------------
count_rows = [
    # (answer, question_type, prediction)
    (12, "10mins", "12"),
    (12, "10mins", "There are twelve chairs."),
    (5, "10mins", "<think>maybe 3 or 4</think> 5"),
    (7, "10mins", "<answer>7</answer>"),
    (7, "10mins", "<answer> 8 apples </answer>"),
    (4, "10mins", "[3, 4]"),
    (5, "10mins", "['five']"),
    (6, "10mins", "no idea"),
    (6, "10mins", ""),
    (100, "10mins", "1e2"),
    (3, "10mins", "3.5 meters"),
    (2, "10mins", "-2"),
    (0, "10mins", "The answer is 0"),
    (0, "10mins", "0.3"),
    (0, "10mins", "zero"),
    (9, "10mins", "["),
    (9, "10mins", "[1,"),
    (9, "10mins", "[]"),
    (21, "20mins", "twenty one"),
    (14, "20mins", "Fourteen"),
    (11, "20mins", "eleven-ish"),
    (9, "20mins", "<think>I count 9"),
    (10, "20mins", "10 or 10"),
    (9, "20mins", "approximately 8 to 10"),
    (1000, "20mins", "1,000"),
    (8, "20mins", "8\u200b"),
    (13, "20mins", "I see 3 tables and 10 chairs, total 13."),
    (20, "20mins", "15"),
    (20, "20mins", "11"),
    (None, "20mins", "4"),
    ("abc", "30mins", "4"),
    (3, "30mins", "3 </think> there are four"),
    (50, "30mins", "about 45"),
    (50, "30mins", "70"),
    (1.5, "30mins", "1.6"),
    (2.5, "30mins", ".5e1"),
    (6, "30mins", "6"),
    (17, "30mins", "seventeen or eighteen"),
    (40, "30mins", "[41, 2]"),
    (40, "30mins", "<answer>C</answer> 40"),
]
df = pd.DataFrame(
    [
        {"index": 100 + i, "video": f"v{i}.mp4", "question": f"How many things in video {i}?", "answer": a,
         "question_type": q, "prediction": p}
        for i, (a, q, p) in enumerate(count_rows)
    ]
)
df.to_excel(out / "SynthModel_VsiSuperCount_10mins.xlsx", index=False)

# --- MCQ sets graded by the (scripted) LLM judge ------------------------------------------
# prediction -> the judge's replies, one per call (the last repeats): every reply shape
# call_llm_extract handles.
replies = {}


def mcq(pred, *judge_replies):
    replies[pred] = list(judge_replies)
    return pred


preds = [
    mcq("The answer is A.", "A\tA"),
    mcq("B", "B\tB"),
    mcq("I think (C)", "A\tC"),
    mcq("<answer>D</answer>", "B\tD"),
    mcq("cannot tell", "C\tN/A"),
    mcq("option A", "A"),
    mcq("hmm", "not a grade", "still not", "nope"),
    mcq("retry me", "Failed to obtain answer via API", "A\tB"),
    mcq("dotted", "A. The answer"),
    mcq("two lines", "B | C\nextra line"),
    mcq("lower", "a\tb", "a", "b"),
    mcq("sep", "A:\\tX"),
]

mind = [
    # (index, category, pred)
    (5, "around", 0), (3, "rotation", 1), (9, "zzz_unknown", 2), (1, "rotation", 3), (2, "around", 4),
    (7, None, 5), (4, "yyy_unknown", 6), (8, "rotation", 7), (6, "around", 8), (10, "zzz_unknown", 9),
    (11, "rotation", 10), (12, "around", 11),
]
pd.DataFrame(
    [{"index": i, "question": f"Q{i}? A. left B. right C. up D. down", "A": "left", "B": "right", "C": "up", "D": "down",
      "answer": "A", "category": c, "prediction": preds[p]} for i, c, p in mind]
).to_excel(out / "SynthModel_MindCubeBench_raw_qa.xlsx", index=False)

video = [
    (1, "Motion Understanding", "Camera Motion", 0), (2, "Spatial Construction", "Instance/Scene Attribute", 1),
    (3, "Planning", "Planning", 2), (4, "Motion Understanding", "Instance Motion", 3),
    (5, "Other Task", "Other Sub", 4), (6, "Spatial Construction", "Camera-Scene Spatial Relationship", 5),
    (7, "Prediction", "Prediction", 6), (8, "Motion Understanding", "Camera Motion", 7),
    (9, "Planning", "Planning", 8), (10, "Spatial Construction", "Instance/Scene Attribute", 9),
    (11, "Other Task", None, 10), (12, "Prediction", "Prediction", 11), (13, "Planning", "Planning", 0),
    (14, "Motion Understanding", "Interactive Motion", 2),
]
pd.DataFrame(
    [{"index": i, "video": f"v{i}.mp4", "question": f"Video question {i}", "candidates": "['left', 'right', 'up', 'down']",
      "answer": "B", "task_type": t, "sub_task_type": s, "prediction": preds[p]} for i, t, s, p in video]
).to_excel(out / "SynthModel_MMSIVideoBench.xlsx", index=False)
# MMSIVideo_U50-style sub-bench tags (MMSIVideoBench._aggregate_subsets): a second archive.
sub_tags = {1: ("level_1", "Robot"), 2: ("level_2", None), 3: ("level_1", "Robot"), 5: ("level_3", "none"),
            8: (None, "Robot"), 9: ("level_2", ""), 12: ("level_1", None)}
pd.DataFrame(
    [{"index": i, "video": f"v{i}.mp4", "question": f"Video question {i}", "candidates": "['left', 'right', 'up', 'down']",
      "answer": "B", "task_type": t, "sub_task_type": s, "Easy2hard": sub_tags.get(i, (None, None))[0],
      "Robot": sub_tags.get(i, (None, None))[1], "prediction": preds[p]} for i, t, s, p in video]
).to_excel(out / "SynthModel_MMSIVideoBench_1fps.xlsx", index=False)

dise = [
    (21, "2D Rotation", "hard", "Intrinsic-Dynamic", 0), (22, "3D Folding", "easy", "Extrinsic-Static", 1),
    (23, "Fold and Punch", "medium", "Intrinsic-Static", 2), (24, "2D Rotation", "easy", "Intrinsic-Dynamic", 3),
    (25, "3D Folding", "hard", "Extrinsic-Dynamic", 7), (26, "New Kind", "hard", "Intrinsic-Static", 8),
    (27, "2D Rotation", "medium", "Extrinsic-Static", 9), (28, "Fold and Punch", "easy", "Intrinsic-Static", 11),
]
pd.DataFrame(
    [{"index": i, "question": f"Shape question {i}", "A": "x", "B": "y", "C": "z", "D": "w", "answer": "C",
      "category": c, "difficulty": d, "dise_category": k, "prediction": preds[p]} for i, c, d, k, p in dise]
).to_excel(out / "SynthModel_Spatial-DISE.xlsx", index=False)


# --- VSI-Bench / SPBench (VsiBench.evaluate): MCQ rows graded, NA rows' numbers extracted by the judge
na = [
    mcq("about twelve", "A\t12"),
    mcq("3.5 meters long", "B\t3.5 m"),
    mcq("five-ish", "C\t5"),
    mcq("dunno", "C\tN/A"),
    mcq("roughly 4.2", "B\t4.2"),
    mcq("it is 9", "A\t9"),
    mcq("zero things", "A\t0"),
    mcq("two hundred", "B\t200"),
]
vsi_types = [
    # (question_type, answer, prediction)
    ("object_counting", "12", na[0]), ("object_counting", "6", na[5]), ("object_counting", "0", na[6]),
    ("object_abs_distance", "3.2", na[1]), ("object_abs_distance", "4", na[4]),
    ("object_size_estimation", "180", na[7]), ("object_size_estimation", "5", na[2]),
    ("room_size_estimation", "20", na[3]), ("room_size_estimation", "10", na[5]),
    ("object_rel_distance", "A", preds[0]), ("object_rel_distance", "B", preds[1]),
    ("object_rel_direction_easy", "A", preds[2]), ("object_rel_direction_easy", "C", preds[5]),
    ("object_rel_direction_medium", "B", preds[3]), ("object_rel_direction_medium", "D", preds[7]),
    ("object_rel_direction_hard", "A", preds[8]), ("object_rel_direction_hard", "A", preds[4]),
    ("route_planning", "C", preds[9]), ("route_planning", "A", preds[11]),
    ("obj_appearance_order", "B", preds[10]), ("obj_appearance_order", "A", preds[6]),
]


def vsi_frame(types):
    return pd.DataFrame(
        [{"index": 300 - i, "video": f"scene{i}.mp4", "question": f"Spatial question {i}",
          "options": "['A. one', 'B. two', 'C. three', 'D. four']" if a.isalpha() else None,
          "answer": a, "question_type": q, "prediction": p} for i, (q, a, p) in enumerate(types)]
    )


vsi_frame(vsi_types).to_excel(out / "SynthModel_VSI-Bench.xlsx", index=False)
vsi_frame([t for t in vsi_types if t[0] != "object_rel_direction_hard"]).to_excel(
    out / "SynthModel_VSI-Bench-Debiased.xlsx", index=False)
sp_types = [
    ("object_rel_direction" if q.startswith("object_rel_direction") else q, a, p)
    for q, a, p in vsi_types if q not in ("room_size_estimation", "route_planning", "obj_appearance_order")
]
vsi_frame(sp_types).to_excel(out / "SynthModel_SPBench-SI.xlsx", index=False)


# --- SiteBench (SiteBenchBase.evaluate: accuracy and class-adjusted accuracy) -------------
site = [
    # (index, category, candidates, pred)
    (1, "counting & existence", "['1', '2', '3', '4']", 0),
    (2, "counting & existence", "['yes', 'no']", 1),
    (3, "object localization & positioning", "['a', 'b', 'c']", 2),
    (4, "3d information understanding", None, 3),
    (5, "3d information understanding", "not a list", 5),
    (6, "spatial relationship reasoning", "['a', 'b', 'c', 'd', 'e']", 8),
    (7, "spatial relationship reasoning", "[]", 11),
    (8, "movement prediction & navigation", "['left', 'right']", 4),
    (9, "some other category", "['x', 'y']", 0),
    (10, "counting & existence", "['1', '2', '3']", 6),
    (11, "multi-view & cross-image reasoning", "['a', 'b']", 7),
    (12, "object localization & positioning", "['a', 'b', 'c', 'd', 'e', 'f']", 9),
]
pd.DataFrame(
    [{"index": i, "question": f"Site question {i}", "candidates": c, "answer": "A", "category": cat,
      "prediction": preds[p]} for i, cat, c, p in site]
).to_excel(out / "SynthModel_SiteBenchImage.xlsx", index=False)

# --- StareBench (accuracy, F1 of the yes/no categories, 6-term macro) --------------------
yn = [
    mcq("yes it is", "A\tA"),
    mcq("no it's not", "B\tB"),
    mcq("I'd say A", "B\tA"),
    mcq("pick b", "A\tb"),
    mcq("yes?", "C\tyes"),
]
YN_Q = "Is the net foldable into a cube? A. yes B. no"
stare = [
    # (index, category, question, answer, prediction)
    (1, "2d_trans", "Which? A. 1 B. 2 C. 3 D. 4", "A", preds[0]),
    (2, " 2D_Trans ", "Which? A. 1 B. 2 C. 3 D. 4", "B", preds[3]),
    (3, "2d_trans_vsim", "Which? A. 1 B. 2", "C", preds[2]),
    (4, "3d_trans", "Which? A. 1 B. 2", "D", preds[9]),
    (5, "temporal", "Which? A. 1 B. 2", "A", preds[5]),
    (6, "temporal", "Which? A. 1 B. 2", "A", preds[4]),
    (7, "folding_nets", YN_Q, "A", yn[0]),
    (8, "folding_nets", YN_Q, "B", yn[1]),
    (9, "folding_nets", YN_Q, "B", yn[2]),
    (10, "folding_nets", YN_Q, "A", yn[3]),
    (11, "folding_nets", "Is it? B: No A: Yes", "A", yn[0]),
    (12, "tangram_puzzle", YN_Q, "A", yn[4]),
    (13, "tangram_puzzle_vsim", YN_Q, "B", yn[1]),
    (14, "tangram_puzzle_vsim", YN_Q, "B", yn[2]),
    (15, "unknown_kind", "Which? A. 1 B. 2", "A", preds[0]),
    (16, "3d_trans_vsim", None, "B", preds[1]),
]
pd.DataFrame(
    [{"index": i, "question": q, "answer": a, "category": c, "prediction": p} for i, c, q, a, p in stare]
).to_excel(out / "SynthModel_StareBench.xlsx", index=False)

# --- SparBench (rules: can_match_option, can_match_na + MRA, the VCI metric) --------------
OPTION_TEXTS = [
    "The answer is A.", "B", "<answer>c. the cup</answer>", "I think (D)", "option A: left\noption B: right",
    "hmm", "A or B", "Final answer: (b)", "<think>A B</think>C", "**E**", "A. left\nB. right\nSo: B",
    "Answer: F.", "选 C", "答案：B", "It is clearly a Dog.", "<think>long</think>\n\nD) because",
    "a", "(A)", "I'd go with B, not C", "none of these",
]
spar = [
    # (index, task, answer, prediction)
    (40, "position_matching", "A", OPTION_TEXTS[0]),
    (12, "obj_spatial_relation_oo", "B", OPTION_TEXTS[1]),
    (33, "obj_spatial_relation_oo", "C", OPTION_TEXTS[2]),
    (7, "camera_motion_infer", "D", OPTION_TEXTS[3]),
    (8, "camera_motion_infer", None, OPTION_TEXTS[5]),
    (9, "spatial_imagination_oc", "(B)", OPTION_TEXTS[7]),
    (10, "spatial_imagination_oc", "A", OPTION_TEXTS[8]),
    (11, "distance_infer_center_oo", "E", OPTION_TEXTS[9]),
    (13, "distance_infer_center_oo", "B", OPTION_TEXTS[10]),
    (14, "position_matching", "F", OPTION_TEXTS[11]),
    (15, "position_matching", "xyz", OPTION_TEXTS[14]),
    (16, "depth_prediction_oc", "2.5", "about 2.4 meters"),
    (17, "depth_prediction_oc", "3", "three"),
    (18, "distance_prediction_oo_mv", "10", "<answer>12</answer>"),
    (19, "distance_prediction_oo_mv", "0", "0.2"),
    (20, "depth_prediction_oo", "4", "no idea"),
    (21, "view_change_infer", "move_right:0.3,move_left:0.1,rotate_up:10", "move_right:0.25,rotate_up:9"),
    (22, "view_change_infer", "move_forward:1.0", "move_backward:1.0"),
    (23, "view_change_infer", "move_up:0.5, rotate_right:30", "move_up:0.5,rotate_right:30,junk,bad:x"),
    (5, "view_change_infer", "move_up:0.5", "I cannot tell"),
]
pd.DataFrame(
    [{"index": i, "task": t, "question": f"Spar question {i}", "answer": a, "prediction": p} for i, t, a, p in spar]
).to_excel(out / "SynthModel_SparBench.xlsx", index=False)

(out / "judge_replies.json").write_text(json.dumps(replies, indent=1) + "\n", encoding="utf-8")
