"""Small fixed text data sets that the recipes' edits write where an NLP tutorial reads a download (our data).

``names_data()`` writes ``data/names/<Language>.txt`` (the char-RNN tutorials' 18 files of surnames, a few per
language, some with accents that the tutorials strip to ASCII); ``eng_fra_data()`` writes ``data/eng-fra.txt``
(tab-separated English-French pairs, most starting with the "i am", "he is"... prefixes the translation tutorial
keeps, and the French of the sentences it translates at the end); ``cornell_data()`` writes the chatbot tutorial's
``movie_lines.txt`` and ``movie_conversations.txt`` in the Cornell corpus's `` +++$+++ `` format (short dialogues
whose words recur, so its rare-word trimming keeps most pairs). Each writes into the script's folder (the
runner's working directory) and returns nothing, so a script reads them as it would read the real files.
"""

from __future__ import annotations

import os

NAMES = {
    "Arabic": "Nader Haddad Khoury Asker Baba Sabbagh Tahan Naifeh Bazzi Shadid",
    "Chinese": "Ang Bai Chan Deng Fang Guo Huang Jiang Liang Zhou",
    "Czech": "Abl Bartos Cerny Dvořák Hajek Kolar Novák Sedlák Svoboda Zeman",
    "Dutch": "Bakker De Jong Janssen Meijer Mulder Peters Smit Visser Vos",
    "English": "Abbott Baker Carter Dawson Ellis Fisher Graham Harris Jackson Walker",
    "French": "Bernard Blanc Dubois Durand Fontaine Lefèvre Martin Mercier Moreau Rousseau",
    "German": "Bauer Becker Fischer Hoffmann Köhler Müller Schmidt Schneider Wagner Weber",
    "Greek": "Andreou Dimitriou Georgiou Katsaros Nikolaidis Pappas Samaras Vlahos Xenakis Zervas",
    "Irish": "Brady Byrne Doyle Kelly Murphy Nolan O'Brien O'Connor Quinn Ryan",
    "Italian": "Abate Bianchi Colombo Conti Esposito Ferrari Gallo Ricci Romano Russo",
    "Japanese": "Abe Fujita Hayashi Ito Kato Kobayashi Nakamura Sato Suzuki Tanaka",
    "Korean": "Ahn Baek Cho Choi Jeon Kang Kim Park Shin Yoon",
    "Polish": "Kowalski Krawczyk Lewandowski Nowak Wiśniewski Wójcik Zając Ślusarski Mazur Kaczmarek",
    "Portuguese": "Almeida Barbosa Carvalho Costa Ferreira Gonçalves Lopes Pereira Santos Silva",
    "Russian": "Abramov Belov Fedorov Ivanov Kuznetsov Morozov Orlov Petrov Smirnov Volkov",
    "Scottish": "Campbell Crawford Douglas Fraser Hamilton Johnston Murray Ross Stewart Wallace",
    "Spanish": "Álvarez Castillo Díaz Fernández García López Martínez Navarro Ruiz Sánchez",
    "Vietnamese": "Bui Dang Do Duong Ho Huynh Le Nguyen Pham Tran",
}

ENG_FRA = """\
Go.|Va !
Run!|Cours !
Hello!|Bonjour !
I am cold.|J'ai froid.
I am tired.|Je suis fatigué.
I am happy.|Je suis heureux.
I am hungry.|J'ai faim.
I am at home.|Je suis à la maison.
I am not sure.|Je ne suis pas sûr.
I'm a teacher.|Je suis enseignant.
I'm very busy.|Je suis très occupé.
I'm sorry.|Je suis désolé.
He is tall.|Il est grand.
He is my friend.|C'est mon ami.
He is a doctor.|Il est médecin.
He's asleep.|Il dort.
He's very kind.|Il est très gentil.
He's late again.|Il est encore en retard.
She is young.|Elle est jeune.
She is my sister.|C'est ma sœur.
She is reading.|Elle lit.
She's smart.|Elle est intelligente.
She's at school.|Elle est à l'école.
You are right.|Tu as raison.
You are late.|Tu es en retard.
You're welcome.|Je vous en prie.
You're very tall.|Tu es très grand.
We are ready.|Nous sommes prêts.
We are friends.|Nous sommes amis.
We're lost.|Nous sommes perdus.
We're at work.|Nous sommes au travail.
They are here.|Ils sont ici.
They are students.|Ils sont étudiants.
They're happy.|Ils sont heureux.
They're not home.|Ils ne sont pas à la maison.
I am a student.|Je suis étudiant.
He is playing.|Il joue.
She is singing.|Elle chante.
We are eating.|Nous mangeons.
They are running.|Ils courent.
You are kind.|Tu es gentil.
I am old.|Je suis vieux.
He is not here.|Il n'est pas ici.
She is very happy.|Elle est très heureuse.
The cat sleeps.|Le chat dort.
I am too cold.|Je suis trop froid.
She is five years younger than me.|Elle a cinq ans de moins que moi.
She is too short.|Elle est trop petit.
I'm not scared to die.|Je ne crains pas de mourir.
He is a talented young director.|C'est un jeune directeur plein de talent.
"""  # English|French, one pair a line


def names_data() -> None:
    folder = os.path.join("data", "names")
    os.makedirs(folder, exist_ok=True)
    for language, names in NAMES.items():
        rows = names.replace("De Jong", "De_Jong").split()
        with open(os.path.join(folder, f"{language}.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(row.replace("_", " ") for row in rows) + "\n")


def eng_fra_data() -> None:
    os.makedirs("data", exist_ok=True)
    with open(os.path.join("data", "eng-fra.txt"), "w", encoding="utf-8") as f:
        f.write(ENG_FRA.replace("|", "\t"))


UTTERANCES = [
    "Hello!", "Hi, how are you?", "I am fine. And you?", "I am good.", "Where are you going?", "I am going home.",
    "Are you my friend?", "Yes, I am your friend.", "What is your name?", "My name is Bob.", "Where is the cat?",
    "The cat is at home.", "Who are you?", "I am a friend.", "Are you going home?", "No, I am going to work.",
    "Good night.", "Good night, Bob.",
]


def cornell_data() -> None:
    folder = os.path.join("data", "cornell movie-dialogs corpus")
    os.makedirs(folder, exist_ok=True)
    lines, conversations = [], []
    for c in range(12):  # conversations of four lines, each starting two utterances further on
        ids = []
        for k in range(4):
            n = len(lines)
            lines.append(f"L{n} +++$+++ u{k % 2} +++$+++ m0 +++$+++ {'AB'[k % 2]} +++$+++ "
                         f"{UTTERANCES[(2 * c + k) % len(UTTERANCES)]}\n")
            ids.append(f"L{n}")
        conversations.append(f"u0 +++$+++ u1 +++$+++ m0 +++$+++ {ids!r}\n")
    for name, rows in (("movie_lines.txt", lines), ("movie_conversations.txt", conversations)):
        with open(os.path.join(folder, name), "w", encoding="iso-8859-1") as f:
            f.write("".join(rows))
