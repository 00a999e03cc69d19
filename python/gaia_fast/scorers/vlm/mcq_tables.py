"""VLMEvalKit multiple choice: the fixed tables and prompt texts, read by the scorer
(:mod:`gaia_fast.scorers.vlm.mcq`) and by its pure-Python twin alike (they are the
benchmarks' definition, not logic either side could get wrong)."""

#: ``can_infer`` versions (``specs/vlmevalkit.md`` §0).
VARIANTS = ("classic", "2025-08", "2026-06", "dcvlr", "2023-12")

#: The judge prompt ``extract_answer_from_item`` builds for English questions
#: (VLMEvalKit ``build_prompt``): ``.format(question, options, prediction)``.
JUDGE_PROMPT_EN = (
    "You are an AI assistant who will help me to match "
    "an answer with several options of a single-choice question. "
    "You are provided with a question, several options, and an answer, "
    "and you need to find which option is most similar to the answer. "
    "If the meaning of all options are significantly different from the answer, output Z. "
    "Your should output a single uppercase character in A, B, C, D (if they are valid options), and Z. \n"
    "Example 1: \n"
    "Question: What is the main object in image?\nOptions: A. teddy bear B. rabbit C. cat D. dog\n"
    "Answer: a cute teddy bear\nYour output: A\n"
    "Example 2: \n"
    "Question: What is the main object in image?\nOptions: A. teddy bear B. rabbit C. cat D. dog\n"
    "Answer: Spider\nYour output: Z\n"
    "Example 3: \n"
    "Question: {}?\nOptions: {}\nAnswer: {}\nYour output: "
)
#: The same for questions holding a CJK unified ideograph (``build_prompt_cn``).
JUDGE_PROMPT_CN = (
    "你是一个帮助我匹配答案与单选题中多个选项的 AI 助手。"
    "你会被提供：一个问题，多个选项，一个答案。你的任务是找到与答案意义最相近的选项。"
    "如果所有选项的意义都与答案显著不同，则输出 Z。"
    "你应该输出一个单个的大写字母，例如 A, B, C, D（如果它们是有效选项），或 Z。"
    "例 1:"
    "问题: 图中最主要的物体是什么?\n选项: A. 泰迪熊 B. 兔子 C. 猫 D. 狗\n答案: 一只可爱的泰迪熊\n输出: A\n"
    "例 2: \n"
    "问题: 图中最主要的物体是什么?\n选项: A. 泰迪熊 B. 兔子 C. 猫 D. 狗\n答案: 蜘蛛\n输出: Z\n"
    "例 3: \n"
    "问题: {}?\n选项: {}\n答案: {}\n输出: "
)
#: The first line of ``build_option_str``.
OPTIONS_HEADER = "There are several options: \n"

#: ``report_acc``'s MMBench category abbreviations.
MMB_ABBRS = {
    "coarse_perception": "CP",
    "finegrained_perception (instance-level)": "FP-S",
    "finegrained_perception (cross-instance)": "FP-C",
    "logic_reasoning": "LR",
    "relation_reasoning": "RR",
    "attribute_reasoning": "AR",
}

#: VMCBench ``report_vmc_acc``: group -> its sources.
GROUPS = {
    "General": ("SEEDBench", "MMStar", "A-OKVQA", "VizWiz", "MMVet", "VQAv2", "OKVQA"),
    "Reasoning": ("MMMU", "MathVista", "ScienceQA", "RealWorldQA", "GQA", "MathVision"),
    "OCR": ("TextVQA", "OCRVQA"),
    "Doc & Chart": ("AI2D", "ChartQA", "DocVQA", "InfoVQA", "TableVQABench"),
}
#: Output columns of ``report_vmc_acc``, in order.
VMC_COLUMNS = ("Overall", *GROUPS, *(name for members in GROUPS.values() for name in members))

#: The four sheets of ``MMMU_eval``'s ``_acc.xlsx``: sheet (and first column) name -> the
#: result-table column it groups by.
MMMU_SHEETS = {"field": "field", "subfield": "subfield", "difficulty": "topic_difficulty", "image_type": "image_type"}
#: MMMU's option columns.
MMMU_LETTERS = "ABCDEFGHI"

#: ``report_acc_MMT``'s task abbreviations.
MMT_ABBRS = {
    "visual_recognition": "VR", "localization": "Loc", "ocr": "OCR", "counting": "Count",
    "hallucination": "HLN", "image_retrieval": "IR", "threed": "3D", "visual_captioning": "VC",
    "visual_grounding": "VG", "doc_understanding": "DU", "action_recognition": "AR",
    "pixel_level_perception": "PLP", "image-to-image_translation": "I2IT", "relation_reasoning": "RR",
    "intelligence_quotient_test": "IQT", "emotion": "Emo", "visual_illusion": "VI",
    "meme_understanding": "MemU", "visual_prompt_understanding": "VPU", "anomaly_detection": "AND",
    "keypoint_detection": "KD", "visual_commonsense_reasoning": "VCR", "image_evaluation_judgement": "IEJ",
    "multiple_image_analysis": "MIA", "cross_image_matching": "CIM", "temporal_understanding": "TU",
    "visual_code": "VP", "medical_understanding": "MedU", "autonomous_driving": "AUD",
    "discipline_knowledge_reasoning": "DKR", "embodied_ai": "EA", "gui_navigation": "GN",
}  # fmt: skip
