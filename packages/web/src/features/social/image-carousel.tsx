import '@mantine/carousel/styles.css';
import { useEffect, useState } from 'react';
import { Carousel } from '@mantine/carousel';
import { Image } from '@mantine/core';
import type { EmblaCarouselType } from 'embla-carousel';
import { LIMITS } from '@studybuddy/shared/limits';

interface Props {
  images: string[];
  /** Whose photos (for the alternative texts). */
  name: string;
  height?: number;
}

/**
 * Profile picture and additional images (requirements §2/§9): a single image when there is only one; otherwise a
 * carousel that advances every 10 s, and pauses for 10 s whenever the student uses it.
 */
export function ImageCarousel({ images, name, height = 320 }: Props) {
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const [lastManualUse, setLastManualUse] = useState(0);

  useEffect(() => {
    if (!embla || images.length < 2) return;
    const timer = setInterval(() => embla.scrollNext(), LIMITS.carouselMs);
    return () => clearInterval(timer);
  }, [embla, images.length, lastManualUse]);

  const alt = (i: number) => (images.length > 1 ? `${name}, photo ${i + 1} of ${images.length}` : name);
  const picture = (src: string, i: number) => (
    <Image src={src} alt={alt(i)} h={height} fit="cover" radius="md" fallbackSrc="/favicon.svg" />
  );

  if (images.length <= 1) return picture(images[0] ?? '', 0);
  const manual = () => setLastManualUse(Date.now());
  return (
    <Carousel
      aria-label={`Photos of ${name}`}
      height={height}
      withIndicators
      emblaOptions={{ loop: true }}
      getEmblaApi={setEmbla}
      onPointerDownCapture={manual}
      onKeyDownCapture={manual}
      previousControlProps={{ 'aria-label': 'Previous photo' }}
      nextControlProps={{ 'aria-label': 'Next photo' }}
      getIndicatorProps={(i) => ({ 'aria-label': `Show photo ${i + 1}` })}
      data-testid="image-carousel"
    >
      {images.map((src, i) => (
        <Carousel.Slide key={`${i}-${src}`}>{picture(src, i)}</Carousel.Slide>
      ))}
    </Carousel>
  );
}
