import pandas as pd, numpy as np, random
random.seed(7)
preds = ["Yes", "No", "yes.", "No, it is not.", "Yes and no", "I cannot tell", "The answer is yes", "no", "YES!", "nope",
         "yes, no", "Yes. There are 3.5 apples.", "(yes)", "no-", "Sure yes", None, 1, "Absolutely no.", "y e s", "No."]
cats = ['discriminative-attribute-state', 'discriminative-attribute-number', 'discriminative-attribute-action',
        'discriminative-hallucination', 'discriminative-relation', 'relation', 'generative-other']
rows = []
for i in range(60):
    cat = cats[i % len(cats)] if i < 56 else cats[3]
    ans = random.choice(['yes', 'no', 'Yes', 'No']) if i % 9 else 'yes'
    if i in (2, 5, 9): cat = None  # a missing category is one more group
    rows.append(dict(index=i + 1, question=f"Is there a thing {i} in this image?", answer=ans, category=cat,
                     image_path=f"AMBER_{(i // 3) + 1}.jpg", prediction=preds[(i * 7) % len(preds)]))
pd.DataFrame(rows).to_excel('m_AMBER.xlsx', index=False, engine='xlsxwriter')
rows = []
for i in range(50):
    ans = 'Yes' if random.random() < 0.5 else 'No'
    if i == 13: ans = 'yes'  # a lowercase answer counts neither as Yes nor as a hit
    rows.append(dict(index=i, question=f"The cat is left of the dog {i}.", answer=ans, prediction=preds[(i * 3 + 1) % len(preds)]))
pd.DataFrame(rows).to_excel('m_VSR-zeroshot.xlsx', index=False, engine='xlsxwriter')
